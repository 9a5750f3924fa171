// ReplayOutcome: what `flashmark replay` did with a stored block IO trace
// (model/block_io_trace.h) and how faithfully: which trace, how it was
// timed and mapped, the IOs it issued by operation, and the fidelity (the
// issue-time error against the intended time, over the whole replay and
// per interval, IOs issued out of
// the trace's order, the queue depth achieved against the recorded one).
// Kept in RunResult::replay of a replay's run; plain data.
//
// Units: times in ns; bytes; queue depths in IOs. The issue-time error of
// an IO is (when it was submitted to the kernel) - (when the trace says it
// should be, scaled, from the replay's start); with --timing afap there
// is no intended time and `timed` is false.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace flashmark {

// One step of a replay's fidelity over time: the IOs submitted in
// [k, k+1) x ReplayFidelity::series_interval_ns since the replay's start
// (the run's intervals, give or take the microseconds between the
// worker's start and the sampler's). Errors as the run's (histogram
// quantiles, early IOs as 0); all 0 when the interval has no IO or the
// replay is not timed.
struct ReplayIntervalFidelity {
  uint64_t ios = 0;
  double error_p50_ns = 0, error_p99_ns = 0, error_max_ns = 0;
  double achieved_depth_mean = 0;
};

struct ReplayFidelity {
  bool timed = false;  // original or scaled timing: the errors mean something
  uint64_t ios = 0;    // IOs the figures are over
  double error_p50_ns = 0, error_p99_ns = 0, error_max_ns = 0;
  double error_mean_ns = 0;
  // IOs submitted before their intended time (their error is negative;
  // the quantiles count them as 0, the mean and max are exact).
  uint64_t early = 0;
  uint64_t reordered = 0;  // IOs submitted after a later IO of the trace
  // Between consecutive submissions of the replay (trace order), to set
  // beside the trace's own inter-arrival times (analysis/trace_summary.h).
  double interarrival_p50_ns = 0, interarrival_p99_ns = 0;
  // In flight at each IO's submission, itself included (mean over IOs,
  // max). Recorded: from the trace's issue and completion times; absent
  // when the trace has no completion times (an fio iolog).
  double achieved_depth_mean = 0;
  uint32_t achieved_depth_max = 0;
  std::optional<double> recorded_depth_mean;
  uint32_t recorded_depth_max = 0;
  // The p99 error above which the timing was not kept (see
  // analysis/replay_fidelity.h), and the verdict.
  double late_threshold_ns = 0;
  bool kept_timing = true;
  // The figures per interval of series_interval_ns (0: none kept), the
  // first from the start; empty for a replay stored without them.
  uint64_t series_interval_ns = 0;
  std::vector<ReplayIntervalFidelity> series;
};

struct ReplayOpCount {
  uint64_t reads = 0, writes = 0, flushes = 0, discards = 0;
  uint64_t read_bytes = 0, write_bytes = 0, discard_bytes = 0;
};

struct ReplayOutcome {
  int64_t trace_id = 0;
  std::string trace_source;  // "fio-iolog", "blktrace", "capture"
  std::string timing;        // "original", "scaled:2", "afap"
  std::string map;           // "none", "linear", "modulo", "wrap"
  uint32_t depth = 0;        // the most IOs the replay could hold in flight
  ReplayOpCount trace_ops;   // what the trace holds
  // The trace's own time between consecutive issues (p50, p99; analysis/
  // trace_summary.h), beside the replay's (fidelity); 0 when not known.
  double trace_interarrival_p50_ns = 0, trace_interarrival_p99_ns = 0;
  ReplayOpCount issued;  // what the replay completed
  ReplayFidelity fidelity;
  std::vector<std::string> notes;  // how flushes/discards were done, etc.
};

// The headline's words when the timing was not kept.
inline constexpr const char* kReplayLateText =
    "replay could not keep the recorded timing";

}  // namespace flashmark
