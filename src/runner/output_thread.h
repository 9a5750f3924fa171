// OutputThread: runs a run's observers (console, steady-state watch, the
// store, the JSON writer) on a thread of their own, so that sampling never
// waits on output: a store locked by another process or a stuck terminal
// only delays what is written, never what is measured.
//
// The sampler's thread Post()s each interval into a queue (mutex and
// condition variable: this is not the IO path, one hand-over per
// interval) and returns at once. The output thread calls, in order:
// OnStart(header) when it starts, OnInterval(run so far, sample) for every
// posted interval, and, once Finish(run) was called and the queue is
// drained, OnEnd(run). The `run` an observer sees in OnStart and
// OnInterval is the output thread's own copy of the header (spec, command
// line, environment, start time; no intervals), never the sampler's
// RunResult. Finish blocks until OnEnd has returned, so no
// interval is lost at the end however slow the observers are.
// The queue is unbounded (an interval is a few KiB; a store that stays
// locked fails by its own busy timeout).
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "model/run_observer.h"
#include "model/run_result.h"

namespace flashmark {

class OutputThread {
 public:
  // Starts the thread, which calls OnStart(header) on every observer.
  OutputThread(std::span<RunObserver* const> observers, RunResult header);
  // Without Finish (an error path): drains the queue, skips OnEnd, joins.
  ~OutputThread();
  OutputThread(const OutputThread&) = delete;
  OutputThread& operator=(const OutputThread&) = delete;

  // Sampler's thread: hands one interval over; never waits on observers.
  void Post(IntervalSample sample);

  // After the last Post: waits until every interval was observed and
  // OnEnd(run) returned on the output thread. Call at most once.
  void Finish(const RunResult& run);

 private:
  void Loop();

  std::vector<RunObserver*> observers_;
  RunResult header_;  // read by the output thread only
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<IntervalSample> queue_;
  const RunResult* final_ = nullptr;  // set by Finish
  bool closing_ = false;              // no more Posts
  std::thread thread_;
};

}  // namespace flashmark
