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
  kLatencyP999,
  // --profile runs: the percentile of each interval's commit latencies
  // (IntervalSample::commit_latency); the headline of such a run.
  kCommitP99,
  kCommitP999
};

struct MetricInfo {
  std::string name;   // "write_mibs"
  std::string title;  // "write throughput"
  std::string unit;   // "MiB/s", "IOPS", "ms"
  double scale = 1;   // value in `unit` = raw value / scale
  bool higher_is_better = true;
};

MetricInfo DescribeMetric(Metric metric);
// write_mibs read_mibs mibs iops p50 p95 p99 p99.9 commit_p99 commit_p99.9
Result<Metric> ParseMetric(std::string_view text);
// Those names, in that order.
std::vector<std::string> MetricNames();
// The headline metric of a run: commit p99 for an application profile's
// run (the application's latency, not MiB/s), else write MiB/s when it
// only writes, read MiB/s when it only reads, both together when it mixes.
Metric DefaultMetric(const RunResult& run);

// A latency metric's per-interval values as an imported tool printed them
// (sysbench prints one percentile per interval, kept as the ToolSeries
// "latency p95" in ms), in ns, one per run.intervals (NaN where it gave
// none); empty when the run holds no such series for this percentile.
// No histogram is pretended: these are the tool's own figures.
std::vector<double> ToolLatencySeries(const RunResult& run, Metric metric);
// The name of the percentile series a run's tool printed ("p95"), or ""
// (for errors that suggest it).
std::string ToolLatencyMetricName(const RunResult& run);

// The metric's value for every full interval (partial ones are left out),
// with the index into run.intervals of each value in `indexes`. A latency
// metric of an interval without histograms is the tool's own figure
// (ToolLatencySeries) where the run has one, else 0.
std::vector<double> MetricSeries(const RunResult& run, Metric metric,
                                 std::vector<size_t>* indexes = nullptr);

}  // namespace flashmark
