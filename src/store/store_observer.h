// StoreObserver: records a run in the RunStore as it happens: the run row
// at start, each interval as it is measured (committed one by one), the
// status and summary at the end. A store failure never stops the run: it
// is reported once on `errors`, recording stops, and failed() tells the
// caller to keep the results elsewhere. Runs on the run's output thread
// (RunObserver), so a store locked by another process delays the writing
// of intervals, never their sampling; none is lost.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>

#include "model/run_observer.h"
#include "store/run_store.h"

namespace flashmark {

class StoreObserver : public RunObserver {
 public:
  StoreObserver(RunStore& store, RunLabels labels, std::ostream& errors);

  void OnStart(const RunResult& run) override;
  void OnInterval(const RunResult& run, const IntervalSample& sample) override;
  void OnEnd(const RunResult& run) override;

  // Called on the output thread with the run's id once its row exists,
  // before any later observer sees OnStart.
  void OnRunId(std::function<void(int64_t)> callback) {
    on_run_id_ = std::move(callback);
  }

  bool failed() const { return failed_; }
  int64_t run_id() const { return run_id_; }

 private:
  void Fail(const Error& error);

  RunStore& store_;
  RunLabels labels_;
  std::ostream& errors_;
  std::function<void(int64_t)> on_run_id_;
  int64_t run_id_ = 0;
  bool failed_ = false;
};

}  // namespace flashmark
