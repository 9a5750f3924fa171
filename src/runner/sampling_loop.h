// SamplingLoop: the sampler's side of a run. It wakes at absolute deadlines
// start + k x interval (on the RunClock, so intervals never drift), takes
// the workers' snapshot at once (Sampler) and hands it on (`deliver`: the
// output queue); it never waits on output, so a slow store or console
// cannot bend a sample.
//
// Stamping: a sample runs from the previous snapshot's instant to this
// one's (ns since start), so samples are contiguous and carry their true
// lengths. A wake-up later than its deadline by more than the stall
// threshold (a quarter of the interval, but at least 100 ms of scheduler
// jitter, or the whole interval when that is shorter) means the sampler
// could not run (the process was stopped by SIGSTOP, or starved): rather
// than cut at that arbitrary instant, just as stalled work is catching up,
// it waits for the next deadline after now and takes ONE sample covering
// the whole stretch, with `spans` = the configured intervals it covers; no
// zero-filled interval is made for the ones it missed. Past the run's last
// deadline it samples at once. A later wake-up within the threshold is
// sampled at once: that sample is a little longer, the next one shorter.
//
// It stops at the last deadline (k x interval >= time limit; at the time
// limit itself when that comes first, and the sample it cuts short is
// partial), when a StopCondition says so (asked with each sample before it
// is delivered), when every worker finished or the run is stopping
// (RunControl), or on an interrupt taken through the clock (which then
// asks the workers to stop).
// With a RunTelemetry, each sample also gets what the host and devices did
// (read right after the workers' snapshot, on this thread); with a
// LatencyTracer, where its IOs' time went.
// Threading: Run and TakeTail on one thread (the runner's).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "model/interval_sample.h"
#include "model/latency_tracer.h"
#include "model/run_telemetry.h"
#include "model/stop_condition.h"
#include "runner/run_clock.h"
#include "runner/run_control.h"
#include "runner/sampler.h"

namespace flashmark {

struct SamplingSettings {
  uint64_t start_ns = 0;  // the run's start, on the RunClock
  uint64_t interval_ns = 1'000'000'000;
  uint64_t time_limit_ns = 0;  // 0: none
  int worker_count = 0;        // all finished: the run ends early
};

// Late by more than this past a deadline: a stall (see above).
uint64_t StallThresholdNs(uint64_t interval_ns);

class SamplingLoop {
 public:
  SamplingLoop(const SamplingSettings& settings, Sampler& sampler,
               RunClock& clock, RunControl& control,
               std::span<StopCondition* const> stop_conditions,
               RunTelemetry* telemetry = nullptr,
               LatencyTracer* tracer = nullptr);

  // Samples until the run should stop (see above), passing each full
  // interval to `deliver`. Returns true when an interrupt ended it.
  bool Run(const std::function<void(IntervalSample)>& deliver);

  // Once the workers are joined: what they did since the last snapshot
  // (the drain, or the stretch before an early stop), marked partial.
  IntervalSample TakeTail();

  // A StopCondition ended the run.
  bool stopped_by_condition() const { return stopped_by_condition_; }

 private:
  enum class Wake { kDeadline, kEnded, kInterrupted };
  Wake WaitUntil(uint64_t deadline_ns);
  IntervalSample Take(uint64_t now_ns);

  SamplingSettings settings_;
  Sampler& sampler_;
  RunClock& clock_;
  RunControl& control_;
  std::span<StopCondition* const> stop_conditions_;
  RunTelemetry* telemetry_;
  LatencyTracer* tracer_;
  uint32_t next_index_ = 0;
  uint64_t last_end_ns_ = 0;    // the last snapshot's instant since start
  uint64_t last_boundary_ = 0;  // deadlines crossed by then
  bool stopped_by_condition_ = false;
};

}  // namespace flashmark
