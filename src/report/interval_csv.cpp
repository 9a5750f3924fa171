#include "report/interval_csv.h"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "analysis/run_analysis.h"

namespace flashmark {
namespace {

// The devices the targets sit on (their members left out, as they are
// counted in them): bytes summed, the busiest one's utilisation, queue and
// await; then the CPU; empty columns for what was not recorded.
std::string TelemetryColumns(const IntervalSample& sample) {
  const IntervalTelemetry& t = sample.telemetry;
  const double seconds = sample.seconds();
  std::string out;
  if (const DiskActivity* busiest = t.Busiest()) {
    // What the devices moved per byte flashmark moved (file system and
    // journal overhead above 1).
    const uint64_t device = t.DeviceReadBytes() + t.DeviceWriteBytes();
    const uint64_t app = sample.read.bytes + sample.write.bytes;
    out += fmt::format(
        "{},{},{},{:.1f},{:.2f},{:.3f}", t.DeviceReadBytes(),
        t.DeviceWriteBytes(),
        app > 0 ? fmt::format("{:.4f}", static_cast<double>(device) / app) : "",
        100 * busiest->Utilisation(seconds), busiest->QueueSize(seconds),
        busiest->AwaitMs());
  } else {
    out += ",,,,,";
  }
  if (t.cpu) {
    const CpuActivity& c = *t.cpu;
    out += fmt::format(
        ",{:.1f},{:.1f},{:.1f},{:.1f},{:.1f}", c.Percent(c.user),
        c.Percent(c.system), c.Percent(c.iowait), c.Percent(c.softirq),
        seconds > 0 ? 100 * (c.self_user + c.self_system) / seconds : 0);
  } else {
    out += ",,,,,";
  }
  out += t.temperature_celsius ? fmt::format(",{:.1f}", *t.temperature_celsius)
                               : ",";
  return out;
}

}  // namespace

IntervalLatency IntervalLatencyOf(const LatencyHistogram& read,
                                  const LatencyHistogram& write,
                                  const std::array<double, 4>& split_p50) {
  LatencyHistogram both = read;
  both.Merge(write);
  return {both.Quantile(0.5),   both.Quantile(0.95), both.Quantile(0.99),
          both.Quantile(0.999), both.Max(),          split_p50};
}

void WriteIntervalsCsv(const RunResult& run,
                       std::span<const IntervalLatency> latencies,
                       std::ostream& out, const CancelToken& cancel) {
  out << "index,start_s,end_s,partial,read_ios,read_bytes,read_mibs,"
         "write_ios,write_bytes,write_mibs,iops,fsyncs,errors,"
         "lat_p50_ns,lat_p95_ns,lat_p99_ns,lat_p999_ns,lat_max_ns,spans,"
         "dev_read_bytes,dev_write_bytes,dev_app_ratio,dev_util_pct,dev_queue,"
         "dev_await_ms,"
         "cpu_user_pct,cpu_system_pct,cpu_iowait_pct,cpu_softirq_pct,"
         "self_cpu_pct,temp_c,"
         "split_flashmark_p50_ns,split_queue_p50_ns,split_device_p50_ns,"
         "split_completion_p50_ns,untraced\n";
  const LatencySplitSummary& whole_split = run.summary.latency_split;
  const bool traced = whole_split.traced() + whole_split.untraced > 0;
  for (size_t i = 0; i < run.intervals.size(); ++i) {
    const IntervalSample& sample = run.intervals[i];
    const IntervalLatency latency =
        i < latencies.size()
            ? latencies[i]
            : IntervalLatencyOf(sample.read_latency, sample.write_latency,
                                SplitAtMedianNs(sample.latency_split));
    std::string split = ",,,,";
    if (traced) {
      split.clear();
      for (const double part : latency.split_p50) {
        split += std::isnan(part) ? "," : fmt::format("{:.0f},", part);
      }
      split += std::to_string(sample.latency_split.untraced);
    }
    out << fmt::format(
        "{},{:.3f},{:.3f},{},{},{},{:.3f},{},{},{:.3f},{:.1f},{},{},{:.0f},"
        "{:.0f},{:.0f},{:.0f},{:.0f},{},{},{}\n",
        sample.index, sample.start_ns / 1e9, sample.end_ns / 1e9,
        sample.partial ? 1 : 0, sample.read.ios, sample.read.bytes,
        sample.seconds() > 0 ? sample.ReadMiBs() : 0, sample.write.ios,
        sample.write.bytes, sample.seconds() > 0 ? sample.WriteMiBs() : 0,
        sample.seconds() > 0 ? sample.Iops() : 0, sample.fsyncs, sample.errors,
        latency.p50, latency.p95, latency.p99, latency.p999, latency.max,
        sample.spans, TelemetryColumns(sample), split);
  }
  // After the rows, so that the header is the first line (spreadsheets,
  // readers without comment support).
  const RunSummary& s = run.summary;
  out << fmt::format("# status: {}\n", RunStatusName(run.status));
  out << fmt::format("# intervals_used: {}\n", s.intervals_used);
  // The headline by the rule every command uses; the medians below it are
  // the whole run's.
  if (auto headline = DefaultHeadline(run, cancel); headline.ok()) {
    out << fmt::format("# headline_metric: {}\n",
                       DescribeMetric(HeadlineMetric(run)).name);
    out << fmt::format("# headline_median: {:.3f}\n", headline->figure.median);
    out << fmt::format("# headline_ci: {:.3f}..{:.3f}\n",
                       headline->figure.median_ci.low,
                       headline->figure.median_ci.high);
    out << fmt::format("# headline_window_s: {:g}..{:g}\n",
                       headline->start_seconds, headline->end_seconds);
    out << fmt::format("# headline_rule: {}\n", headline->rule);
  }
  out << fmt::format("# read_mibs_median: {:.3f}\n", s.read_mibs.median);
  out << fmt::format("# write_mibs_median: {:.3f}\n", s.write_mibs.median);
  out << fmt::format("# iops_median: {:.1f}\n", s.iops.median);
  out << fmt::format("# latency_p99_ns: {:.0f}\n", s.latency.p99);
}

}  // namespace flashmark
