// The fidelity of a replay (`flashmark replay`): from what the trace
// recorded and what the replay did, IO by IO, the figures of
// model/replay_outcome.h. Pure functions; thread-safe. The replayer
// computes them as it goes (analysis/replay_fidelity_accumulator.h);
// ComputeReplayFidelity() does the same over records kept in memory.
//
// Definitions (over the IOs given; the quantiles are those of log-bucket
// histograms, within 0.1 % of the exact value, every other figure exact):
// - recorded depth of IO i: the trace's IOs in flight when i was issued,
//   i included: those issued before it (issue_ns <= i's, earlier in the
//   trace) whose completion is later than i's issue. Known only when the
//   trace has completion times (an IO without one counts as completed at
//   once); none has: unknown (an fio iolog).
// - issue error of IO i: issued_ns - intended_ns (ns since the replay's
//   start; issued_ns: when the system call that submitted it was made,
//   the same for the IOs of one batch); quantiles by nearest rank of a
//   histogram (model/latency_histogram.h), an early IO (error below 0)
//   counted as 0 there and in `early`; mean and max exact. Only with
//   intended times (not --timing afap).
// - reordered: the IOs submitted before some IO that precedes them in the
//   trace (issued_ns smaller than the largest issued_ns before them).
// - inter-arrival: issued_ns of each IO minus the previous IO's (trace
//   order; 0 when below), p50 and p99 (histogram, as the errors), to set
//   beside the trace's own.
// - achieved depth: the replay's IOs in flight at each submission, the IO
//   included (the replayer records it); mean over IOs and max.
// - series: the same per interval of the run (ReplayIntervalFidelity).
// - late threshold: 1 ms, or twice the trace's mean inter-arrival time
//   when that is shorter (the replay is then more than two IOs behind);
//   the timing was kept when the p99 error is at most the threshold.
// Units: ns; depths in IOs.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <span>
#include <vector>

#include "analysis/replay_fidelity_accumulator.h"
#include "model/block_io_trace.h"
#include "model/replay_outcome.h"

namespace flashmark {

// The recorded depth of each IO given in trace order, in memory bounded by
// the trace's IOs in flight (a min-heap of their completion times). Whether
// it is known at all (some IO has a completion time) is the caller's to
// tell; a value type used by one thread.
class RecordedDepthCounter {
 public:
  uint32_t Next(const TracedIo& io) {
    while (!pending_.empty() && pending_.top() <= io.issue_ns) pending_.pop();
    const auto depth = static_cast<uint32_t>(pending_.size() + 1);
    if (io.complete_ns > io.issue_ns) pending_.push(io.complete_ns);
    return depth;
  }

 private:
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> pending_;
};

// Per IO of `trace` (its order), the recorded depth; empty when the trace
// has no completion time at all.
std::vector<uint32_t> RecordedQueueDepths(const BlockIoTrace& trace);

// 1 ms, or twice `mean_interarrival_ns` when shorter (and positive).
double ReplayLateThresholdNs(double mean_interarrival_ns);

// The figures of `ios` (trace order), through a ReplayFidelityAccumulator;
// `interval_ns` > 0 keeps the series.
ReplayFidelity ComputeReplayFidelity(std::span<const ReplayIoRecord> ios,
                                     double mean_interarrival_ns,
                                     uint64_t interval_ns = 0);

}  // namespace flashmark
