// RunControl: what the workers and the sampler share to stop a run.
// Threading: `stop` is polled by workers (relaxed load per IO); the first
// fatal IO error is recorded under a mutex (error path only, never the
// IO path) and stops the run.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>

#include "model/run_result.h"

namespace flashmark {

class RunControl {
 public:
  bool stopping() const { return stop_.load(std::memory_order_relaxed); }
  void RequestStop() { stop_.store(true, std::memory_order_relaxed); }

  // Records the first error and stops the run; later errors are dropped.
  void Fail(RunError error) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::move(error);
    RequestStop();
  }
  std::optional<RunError> error() const {
    std::lock_guard lock(mutex_);
    return error_;
  }

  void WorkerFinished() { finished_.fetch_add(1, std::memory_order_release); }
  int workers_finished() const {
    return finished_.load(std::memory_order_acquire);
  }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> finished_{0};
  mutable std::mutex mutex_;
  std::optional<RunError> error_;
};

}  // namespace flashmark
