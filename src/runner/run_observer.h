// RunObserver: what reporters and stores implement to follow a run as it
// happens (model: Google Benchmark's BenchmarkReporter). All calls come
// from the runner's own thread, in order: OnStart, OnInterval per
// interval, OnEnd. Observers must not throw; they report their own
// failures through their own channel and never stop the run.
#pragma once

#include "metrics/run_result.h"

namespace flashmark {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // `run` holds spec, command line, environment and start time.
  virtual void OnStart(const RunResult& run) = 0;
  virtual void OnInterval(const RunResult& run, const IntervalSample& sample) = 0;
  // `run` is complete: intervals, summary, status, error.
  virtual void OnEnd(const RunResult& run) = 0;
  // Asked after each OnInterval: true ends the run normally (status ok),
  // e.g. once steady state is reached with --until-steady.
  virtual bool WantsStop() const { return false; }
};

}  // namespace flashmark
