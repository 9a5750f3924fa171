// The per-interval table of a run as CSV: the header row first, then one
// row per interval (times in seconds, IOs and bytes per direction, MiB/s,
// IOPS, fsyncs, errors, latency percentiles in nanoseconds from the
// interval's histogram, the configured intervals it spans: > 1 for a
// stall, telemetry, and with --trace-latency the p50 of each part of the
// latency split and the IOs not found in the trace), then "# key: value"
// comment lines holding the run's headline (headline_*: the rule every
// command uses) and its whole-run summary. Writes to the injected
// stream; pure otherwise. The headline's analysis stops early when cancel
// is set (the caller then discards the text).
#pragma once

#include <array>
#include <ostream>
#include <span>

#include "analysis/cancel.h"
#include "model/run_result.h"

namespace flashmark {

// One interval's latency columns: reads and writes together, ns; its p50
// in the split's parts (flashmark, queue, device, completion:
// model/latency_split.h's SplitAtMedianNs), NaN where the interval has
// none.
struct IntervalLatency {
  double p50 = 0, p95 = 0, p99 = 0, p999 = 0, max = 0;
  std::array<double, 4> split_p50{};
};
IntervalLatency IntervalLatencyOf(const LatencyHistogram& read,
                                  const LatencyHistogram& write,
                                  const std::array<double, 4>& split_p50);

// `latencies`: one per interval of run.intervals, in order, so that the
// intervals need no histograms (export streams them from the store: a
// long run's histograms would take gigabytes); empty: each interval's own.
void WriteIntervalsCsv(const RunResult& run,
                       std::span<const IntervalLatency> latencies,
                       std::ostream& out, const CancelToken& cancel = {});

}  // namespace flashmark
