#include "analysis/run_summary.h"

#include <vector>

#include "analysis/quantiles.h"
#include "model/interval_merge.h"
#include "model/split_by_latency.h"

namespace flashmark {

LatencySummary SummarizeLatency(const LatencyHistogram& histogram) {
  LatencySummary summary;
  summary.count = histogram.count();
  if (histogram.empty()) return summary;
  summary.mean = histogram.Mean();
  summary.min = histogram.Min();
  summary.max = histogram.Max();
  summary.p50 = histogram.Quantile(0.50);
  summary.p90 = histogram.Quantile(0.90);
  summary.p95 = histogram.Quantile(0.95);
  summary.p99 = histogram.Quantile(0.99);
  summary.p999 = histogram.Quantile(0.999);
  summary.p9999 = histogram.Quantile(0.9999);
  return summary;
}

RunSummary SummarizeRun(std::span<const IntervalSample> intervals,
                        double elapsed_seconds) {
  RunSummary summary;
  summary.elapsed_seconds = elapsed_seconds;

  bool any_full = false;
  for (const auto& sample : intervals) any_full |= !sample.partial;

  std::vector<double> read_mibs, write_mibs, iops;
  LatencyAccumulator reads, writes, schedules, commits;
  LatencyAccumulator split[4];  // flashmark, queue, device, completion
  SplitByLatencyAccumulator split_by_latency;
  uint64_t untraced = 0;
  IntervalSample whole;  // without a full interval: the run as one
  for (const auto& sample : intervals) {
    AddCounters(summary, sample);
    reads.Add(sample.read_latency);
    writes.Add(sample.write_latency);
    schedules.Add(sample.schedule_latency);
    commits.Add(sample.commit_latency);
    const LatencySplit& parts = sample.latency_split;
    split[0].Add(parts.flashmark);
    split[1].Add(parts.queue);
    split[2].Add(parts.device);
    split[3].Add(parts.completion);
    split_by_latency.Add(parts.by_latency);
    untraced += parts.untraced;
    if (!any_full) {
      whole.end_ns += sample.end_ns - sample.start_ns;
      whole.read.ios += sample.read.ios;
      whole.read.bytes += sample.read.bytes;
      whole.write.ios += sample.write.ios;
      whole.write.bytes += sample.write.bytes;
      continue;
    }
    if (sample.partial || sample.seconds() <= 0) continue;
    read_mibs.push_back(sample.ReadMiBs());
    write_mibs.push_back(sample.WriteMiBs());
    iops.push_back(sample.Iops());
  }
  if (!any_full && whole.seconds() > 0) {
    read_mibs.push_back(whole.ReadMiBs());
    write_mibs.push_back(whole.WriteMiBs());
    iops.push_back(whole.Iops());
  }
  summary.intervals_used = iops.size();
  summary.read_mibs = SummarizeSeries(std::move(read_mibs));
  summary.write_mibs = SummarizeSeries(std::move(write_mibs));
  summary.iops = SummarizeSeries(std::move(iops));

  SummarizeLatencies(reads.Result(), writes.Result(), schedules.Result(),
                     summary);
  summary.commit_latency = SummarizeLatency(commits.Result());
  const SplitByLatency by_latency = split_by_latency.Take();
  summary.latency_split = {SummarizeLatency(split[0].Result()),
                           SummarizeLatency(split[1].Result()),
                           SummarizeLatency(split[2].Result()),
                           SummarizeLatency(split[3].Result()),
                           by_latency.PartsAt(0.5),
                           by_latency.PartsAt(0.99),
                           untraced};
  return summary;
}

void SummarizeLatencies(const LatencyHistogram& reads,
                        const LatencyHistogram& writes,
                        const LatencyHistogram& schedules, RunSummary& into) {
  LatencyHistogram both = reads;
  both.Merge(writes);
  into.read_latency = SummarizeLatency(reads);
  into.write_latency = SummarizeLatency(writes);
  into.latency = SummarizeLatency(both);
  into.schedule_latency = SummarizeLatency(schedules);
}

}  // namespace flashmark
