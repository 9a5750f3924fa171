#include "analysis/metric.h"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <utility>

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
    case Metric::kCommitP99:
      return {"commit_p99", "commit p99 latency", "ms", 1e6, false};
    case Metric::kCommitP999:
      return {"commit_p99.9", "commit p99.9 latency", "ms", 1e6, false};
  }
  return {};
}

namespace {
constexpr std::array<Metric, 10> kMetrics{
    Metric::kWriteMibs,  Metric::kReadMibs,    Metric::kMibs,
    Metric::kIops,       Metric::kLatencyP50,  Metric::kLatencyP95,
    Metric::kLatencyP99, Metric::kLatencyP999, Metric::kCommitP99,
    Metric::kCommitP999};
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
      "use write_mibs, read_mibs, mibs, iops, p50, p95, p99, p99.9, "
      "commit_p99 or commit_p99.9");
}

Metric DefaultMetric(const RunResult& run) {
  if (!run.spec.profile.empty()) return Metric::kCommitP99;
  const bool reads = run.summary.read.ios > 0;
  const bool writes = run.summary.write.ios > 0;
  if (reads && writes) return Metric::kMibs;
  return writes ? Metric::kWriteMibs : Metric::kReadMibs;
}

namespace {

// "latency p95" in ms (or us, ns): the metric it is, and ns per unit.
std::optional<std::pair<Metric, double>> ToolLatency(const ToolSeries& series) {
  constexpr std::string_view kPrefix = "latency ";
  if (!series.name.starts_with(kPrefix)) return std::nullopt;
  auto metric =
      ParseMetric(std::string_view(series.name).substr(kPrefix.size()));
  if (!metric.ok() || DescribeMetric(*metric).unit != "ms") return std::nullopt;
  const double scale = series.unit == "ms"   ? 1e6
                       : series.unit == "us" ? 1e3
                       : series.unit == "ns" ? 1
                                             : 0;
  if (scale == 0) return std::nullopt;
  return std::pair{*metric, scale};
}

}  // namespace

std::vector<double> ToolLatencySeries(const RunResult& run, Metric metric) {
  for (const ToolSeries& series : run.imported.series) {
    const auto latency = ToolLatency(series);
    if (!latency || latency->first != metric ||
        series.values.size() != run.intervals.size()) {
      continue;
    }
    std::vector<double> ns;
    ns.reserve(series.values.size());
    for (double value : series.values) ns.push_back(value * latency->second);
    return ns;
  }
  return {};
}

std::string ToolLatencyMetricName(const RunResult& run) {
  for (const ToolSeries& series : run.imported.series) {
    if (const auto latency = ToolLatency(series))
      return DescribeMetric(latency->first).name;
  }
  return "";
}

std::vector<double> MetricSeries(const RunResult& run, Metric metric,
                                 std::vector<size_t>* indexes) {
  std::vector<double> values;
  const std::vector<double> tool = ToolLatencySeries(run, metric);
  if (indexes) indexes->clear();
  for (size_t i = 0; i < run.intervals.size(); ++i) {
    const IntervalSample& sample = run.intervals[i];
    if (sample.partial || sample.seconds() <= 0) continue;
    double value = 0;
    auto quantile = [&sample, &tool, i](double q) {
      if (sample.read_latency.empty() && sample.write_latency.empty() &&
          i < tool.size()) {
        return tool[i];  // the tool's own figure (metric's percentile)
      }
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
      case Metric::kCommitP99:
        value = sample.commit_latency.Quantile(0.99);
        break;
      case Metric::kCommitP999:
        value = sample.commit_latency.Quantile(0.999);
        break;
    }
    values.push_back(value);
    if (indexes) indexes->push_back(i);
  }
  return values;
}

}  // namespace flashmark
