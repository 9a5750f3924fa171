// Builds a RunSummary from a run's intervals (pure function).
// Series figures (median, quartiles... of per-interval MiB/s and IOPS) use
// the full intervals only; a partial last interval (the run ended between
// two boundaries) counts in the totals but not in the series. A run with
// no full interval at all (shorter than its --interval) is one value: its
// totals over its time. Latency figures come from the merged interval
// histograms.
#pragma once

#include <span>

#include "model/interval_sample.h"
#include "model/run_result.h"

namespace flashmark {

LatencySummary SummarizeLatency(const LatencyHistogram& histogram);
// The summary's latency figures (read, write, both, from the intended
// start) from the whole run's merged histograms of each kind.
void SummarizeLatencies(const LatencyHistogram& reads,
                        const LatencyHistogram& writes,
                        const LatencyHistogram& schedules, RunSummary& into);

RunSummary SummarizeRun(std::span<const IntervalSample> intervals,
                        double elapsed_seconds);

}  // namespace flashmark
