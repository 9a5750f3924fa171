#include "analysis/metric.h"

#include <fmt/format.h>

#include <array>

namespace flashmark {

MetricInfo DescribeMetric(Metric metric) {
  switch (metric) {
    case Metric::kReadMibs:
      return {"read_mibs", "read throughput", "MiB/s", 1, true};
    case Metric::kWriteMibs:
      return {"write_mibs", "write throughput", "MiB/s", 1, true};
    case Metric::kMibs:
      return {"mibs", "throughput", "MiB/s", 1, true};
    case Metric::kIops:
      return {"iops", "IOPS", "IOPS", 1, true};
    case Metric::kLatencyP50:
      return {"p50", "p50 latency", "ms", 1e6, false};
    case Metric::kLatencyP95:
      return {"p95", "p95 latency", "ms", 1e6, false};
    case Metric::kLatencyP99:
      return {"p99", "p99 latency", "ms", 1e6, false};
    case Metric::kLatencyP999:
      return {"p99.9", "p99.9 latency", "ms", 1e6, false};
  }
  return {};
}

namespace {
constexpr std::array<Metric, 8> kMetrics{
    Metric::kWriteMibs,  Metric::kReadMibs,   Metric::kMibs,
    Metric::kIops,       Metric::kLatencyP50, Metric::kLatencyP95,
    Metric::kLatencyP99, Metric::kLatencyP999};
}  // namespace

std::vector<std::string> MetricNames() {
  std::vector<std::string> names;
  for (Metric metric : kMetrics) names.push_back(DescribeMetric(metric).name);
  return names;
}

Result<Metric> ParseMetric(std::string_view text) {
  for (Metric metric : kMetrics) {
    if (DescribeMetric(metric).name == text) return metric;
  }
  return UsageError(
      fmt::format("--metric: \"{}\" is not a metric", text),
      "use write_mibs, read_mibs, mibs, iops, p50, p95, p99 or p99.9");
}

Metric DefaultMetric(const RunResult& run) {
  const bool reads = run.summary.read.ios > 0;
  const bool writes = run.summary.write.ios > 0;
  if (reads && writes) return Metric::kMibs;
  return writes ? Metric::kWriteMibs : Metric::kReadMibs;
}

std::vector<double> MetricSeries(const RunResult& run, Metric metric,
                                 std::vector<size_t>* indexes) {
  std::vector<double> values;
  if (indexes) indexes->clear();
  for (size_t i = 0; i < run.intervals.size(); ++i) {
    const IntervalSample& sample = run.intervals[i];
    if (sample.partial || sample.seconds() <= 0) continue;
    double value = 0;
    auto quantile = [&sample](double q) {
      LatencyHistogram both = sample.read_latency;
      both.Merge(sample.write_latency);
      return both.Quantile(q);
    };
    switch (metric) {
      case Metric::kReadMibs:
        value = sample.ReadMiBs();
        break;
      case Metric::kWriteMibs:
        value = sample.WriteMiBs();
        break;
      case Metric::kMibs:
        value = sample.ReadMiBs() + sample.WriteMiBs();
        break;
      case Metric::kIops:
        value = sample.Iops();
        break;
      case Metric::kLatencyP50:
        value = quantile(0.5);
        break;
      case Metric::kLatencyP95:
        value = quantile(0.95);
        break;
      case Metric::kLatencyP99:
        value = quantile(0.99);
        break;
      case Metric::kLatencyP999:
        value = quantile(0.999);
        break;
    }
    values.push_back(value);
    if (indexes) indexes->push_back(i);
  }
  return values;
}

}  // namespace flashmark
