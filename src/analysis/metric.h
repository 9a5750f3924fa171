// The per-interval quantities analysis works on: throughput (read, write,
// both), IOPS and latency percentiles of each interval's histogram.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "model/run_result.h"

namespace flashmark {

enum class Metric {
  kReadMibs,
  kWriteMibs,
  kMibs,
  kIops,
  kLatencyP50,
  kLatencyP95,
  kLatencyP99,
  kLatencyP999
};

struct MetricInfo {
  std::string name;   // "write_mibs"
  std::string title;  // "write throughput"
  std::string unit;   // "MiB/s", "IOPS", "ms"
  double scale = 1;   // value in `unit` = raw value / scale
  bool higher_is_better = true;
};

MetricInfo DescribeMetric(Metric metric);
// write_mibs read_mibs mibs iops p50 p95 p99 p99.9
Result<Metric> ParseMetric(std::string_view text);
// Those names, in that order.
std::vector<std::string> MetricNames();
// The headline metric of a run: write MiB/s when it only writes, read
// MiB/s when it only reads, both together when it mixes.
Metric DefaultMetric(const RunResult& run);

// The metric's value for every full interval (partial ones are left out),
// with the index into run.intervals of each value in `indexes`.
std::vector<double> MetricSeries(const RunResult& run, Metric metric,
                                 std::vector<size_t>* indexes = nullptr);

}  // namespace flashmark
