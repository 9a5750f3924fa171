// RunControl: what the workers and the sampler share to start and stop a
// run. Threading: workers block in WaitForStart() until the runner, once
// every worker thread exists, calls Start() (so that thousands of threads
// are made without the first ones' IO slowing the making of the rest);
// `stop` is polled by workers (relaxed load per IO); the first fatal IO
// error is recorded under a mutex (error path only, never the IO path) and
// stops the run.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>

#include "model/run_result.h"

namespace flashmark {

class RunControl {
 public:
  // When the workers start and when they stop by themselves (NowNs(); 0:
  // no time limit) if the sampler has not stopped them first; the nice
  // value each worker gives itself (0: it keeps the runner's; see
  // SamplerPriority for when the workers step back instead).
  struct Window {
    uint64_t start_ns = 0;
    uint64_t stop_ns = 0;
    int worker_nice = 0;
  };
  void Start(Window window) {
    stop_ns_ = window.stop_ns;
    worker_nice_ = window.worker_nice;
    start_ns_.store(window.start_ns, std::memory_order_release);
    start_ns_.notify_all();
  }
  Window WaitForStart() const {
    start_ns_.wait(0, std::memory_order_acquire);
    return {start_ns_.load(std::memory_order_acquire), stop_ns_, worker_nice_};
  }

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

  // A worker's IO is over (its engine may still be closing).
  void WorkerFinished() {
    finished_.fetch_add(1, std::memory_order_release);
    finished_.notify_all();
  }
  int workers_finished() const {
    return finished_.load(std::memory_order_acquire);
  }
  // Blocks until `count` workers have called WorkerFinished().
  void WaitForWorkers(int count) const {
    for (int done = workers_finished(); done < count;
         done = workers_finished()) {
      finished_.wait(done, std::memory_order_acquire);
    }
  }

 private:
  std::atomic<uint64_t> start_ns_{0};
  uint64_t stop_ns_ = 0;  // written before start_ns_ is released
  int worker_nice_ = 0;   // likewise
  std::atomic<bool> stop_{false};
  std::atomic<int> finished_{0};
  mutable std::mutex mutex_;
  std::optional<RunError> error_;
};

}  // namespace flashmark
