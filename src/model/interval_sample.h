// IntervalSample: what happened during one sampling interval, summed over
// all workers: bytes and IOs per direction, fsyncs, errors, blocks checked
// and found bad by --verify, and the latency histogram deltas (and, with
// --trace-latency, where that time went); beside them
// what the host and devices did meanwhile (telemetry, when read). A plain
// value type; it can equally be built from another process's counters.
//
// Times are nanoseconds since the run started, and they are the instants
// the snapshots were actually taken (the previous one's, this one's), not
// index x interval: intervals are contiguous (start = the previous end)
// and about the configured length, a little more or less by the sampler's
// wake-up jitter. Every rate divides by this true duration (seconds()).
// When the sampler could not sample at a boundary (the process was
// stopped, SIGSTOP, or starved), one sample covers the whole stretch:
// `spans` says how many configured intervals it stands for (1 normally),
// and no zero-filled interval is ever invented for the ones it missed.
#pragma once

#include <cstdint>

#include "model/interval_telemetry.h"
#include "model/latency_histogram.h"
#include "model/latency_split.h"
#include "model/verify_result.h"

namespace flashmark {

struct DirectionTotals {
  uint64_t ios = 0;
  uint64_t bytes = 0;
};

struct IntervalSample {
  uint32_t index = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  // The run's last stretch after the last boundary (the drain), or before
  // an early stop: shorter than an interval, left out of per-interval
  // statistics but counted in the totals.
  bool partial = false;
  uint32_t spans = 1;  // configured intervals this sample covers (>= 1)
  DirectionTotals read;
  DirectionTotals write;
  uint64_t fsyncs = 0;
  uint64_t errors = 0;
  VerifyCounts verify;            // --verify: blocks checked on reads, bad ones
  LatencyHistogram read_latency;  // service time, submission to completion
  LatencyHistogram write_latency;
  LatencyHistogram schedule_latency;  // from intended start (with --rate)
  // --profile: one entry per commit made durable in the interval, from its
  // first log write's submission to its sync's return (model/app_profile.h)
  LatencyHistogram commit_latency;
  LatencySplit latency_split;   // --trace-latency: where the time went
  IntervalTelemetry telemetry;  // devices and CPU (model/run_telemetry.h)

  double seconds() const { return (end_ns - start_ns) / 1e9; }
  double ReadMiBs() const { return read.bytes / 1048576.0 / seconds(); }
  double WriteMiBs() const { return write.bytes / 1048576.0 / seconds(); }
  double Iops() const { return (read.ios + write.ios) / seconds(); }
  // Nothing was recorded in it: no IO, fsync, error or checked block, and
  // no traced IO (the split of an IO counted in an earlier interval may
  // come in a later one: the tracer joins what it drained since).
  bool RecordedNothing() const {
    return read.ios == 0 && write.ios == 0 && fsyncs == 0 && errors == 0 &&
           verify.checked == 0 && !verify.bad() && latency_split.empty();
  }
};

}  // namespace flashmark
