// RunObserver: what reporters and stores implement to follow a run as it
// happens (model: Google Benchmark's BenchmarkReporter). All calls come
// from the run's output thread (runner/output_thread.h), one at a time and
// in order: OnStart, OnInterval per interval (full ones, then the partial
// tail if any), OnEnd. They may be slow (a locked store, a blocked
// terminal): that delays only the output, never the sampling. Observers
// must not throw; they report their own failures through their own
// channel and never stop the run. Deciding to stop a run is a
// StopCondition's business (model/stop_condition.h), not an observer's.
#pragma once

#include "model/run_result.h"

namespace flashmark {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // `run` holds spec, command line, environment and start time (in
  // OnInterval too: the intervals so far are not in it; `sample` is).
  virtual void OnStart(const RunResult& run) = 0;
  virtual void OnInterval(const RunResult& run,
                          const IntervalSample& sample) = 0;
  // `run` is complete: intervals, summary, status, error.
  virtual void OnEnd(const RunResult& run) = 0;
};

}  // namespace flashmark
