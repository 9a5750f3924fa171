#include "analysis/compare.h"

#include <algorithm>

namespace flashmark {
namespace {

MetricComparison CompareOne(const std::vector<ComparisonUnit>& units,
                            std::vector<double> ComparisonUnit::*series,
                            std::string metric, std::string unit,
                            bool higher_is_better,
                            const BootstrapOptions& bootstrap) {
  MetricComparison result{
      std::move(metric), std::move(unit), higher_is_better, {}, {}, {}};
  const std::vector<double>& baseline = units.front().*series;
  for (const auto& candidate : units) {
    const std::vector<double>& values = candidate.*series;
    result.medians.push_back(MedianConfidenceInterval(values, bootstrap));
    result.ratios.push_back(
        MedianRatioConfidenceInterval(values, baseline, bootstrap));
  }
  for (const auto& ratio : result.ratios) {
    result.within_noise.push_back(ratio.low <= 1 && 1 <= ratio.high);
  }
  return result;
}

}  // namespace

Comparison CompareUnits(const std::vector<ComparisonUnit>& units,
                        const BootstrapOptions& bootstrap,
                        const MetricInfo& headline) {
  Comparison comparison;
  if (units.empty()) return comparison;
  for (const auto& unit : units) comparison.names.push_back(unit.name);
  const bool throughput = headline.higher_is_better;
  comparison.metrics.push_back(CompareOne(
      units, &ComparisonUnit::mibs, throughput ? "throughput" : headline.title,
      throughput ? "MiB/s" : headline.unit, throughput, bootstrap));
  comparison.metrics.push_back(CompareOne(units, &ComparisonUnit::iops, "IOPS",
                                          "IOPS", true, bootstrap));
  comparison.metrics.push_back(CompareOne(
      units, &ComparisonUnit::p99_ns, "p99 latency", "ns", false, bootstrap));
  for (size_t u = 0; u < units.size(); ++u) {
    CostFigures cost;
    if (units[u].price) {
      const double price = units[u].price->amount;
      cost.currency = units[u].price->currency;
      if (units[u].capacity_bytes > 0) {
        cost.per_gb = price / (units[u].capacity_bytes / 1e9);
      }
      const double mibs = comparison.metrics[0].medians[u].estimate;
      const double iops = comparison.metrics[1].medians[u].estimate;
      if (mibs > 0 && throughput) cost.per_mibs = price / mibs;
      if (iops > 0) cost.per_kiops = price / (iops / 1000);
    }
    comparison.costs.push_back(cost);
  }
  return comparison;
}

}  // namespace flashmark
