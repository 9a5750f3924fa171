// Comparison of runs (or groups of runs sharing a tag) against a baseline,
// with honest uncertainty: for each metric, each unit's median with its
// block-bootstrap CI and its ratio to the baseline's median with a CI from
// resampling both series independently (bootstrap.h); a difference is
// clear only where that ratio's CI leaves out 1. Latency is compared
// by the median of per-interval p99 values (lower is better). Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/bootstrap.h"
#include "analysis/metric.h"
#include "common/units.h"

namespace flashmark {

struct ComparisonUnit {
  std::string name;          // label, "run 7", or the tag value
  std::vector<double> mibs;  // per analysed interval
  std::vector<double> iops;
  std::vector<double> p99_ns;
  std::optional<Price> price;  // from a price tag, in its currency
  double capacity_bytes = 0;   // for price per GB; 0 = unknown
};

struct MetricComparison {
  std::string metric;  // "throughput", "IOPS", "p99 latency"
  std::string unit;    // "MiB/s", "IOPS", "ns"
  bool higher_is_better = true;
  std::vector<ConfidenceInterval> medians;  // per unit
  std::vector<ConfidenceInterval> ratios;   // unit / baseline; [0] = 1
  // The one rule for "no clear difference": the ratio's CI includes 1
  // (the baseline's own entry: true).
  std::vector<bool> within_noise;
};

// In the price's currency; per GB is per 10^9 bytes of capacity.
struct CostFigures {
  std::optional<double> per_gb, per_mibs, per_kiops;
  std::string currency;  // as the price tag gave it ("" when none)
};

struct Comparison {
  std::vector<std::string> names;
  std::vector<MetricComparison> metrics;
  std::vector<CostFigures> costs;
};

// The first unit is the baseline. Units need at least one interval each.
// `headline` is the metric the units' first series (ComparisonUnit::mibs)
// holds: a throughput ("throughput", higher is better) or an application
// profile's commit latency (named by its title, lower is better; no cost
// per MiB/s then).
Comparison CompareUnits(
    const std::vector<ComparisonUnit>& units,
    const BootstrapOptions& bootstrap = {},
    const MetricInfo& headline = DescribeMetric(Metric::kMibs));

}  // namespace flashmark
