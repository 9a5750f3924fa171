// Watches for SIGINT and SIGTERM while a long command computes (analyze,
// report, compare): a thread of its own takes the first such signal and
// sets a flag that the computation polls (analysis CancelToken, store
// StopWhen). The signals must be blocked in every thread beforehand
// (BlockInterruptSignals in main), so nothing else takes them; one that
// arrived before the watch started is taken at once. Destruction stops and
// joins the thread without delay. If the watch cannot start (no signalfd
// or eventfd), the flag simply never sets. Not copyable; one at a time.
#pragma once

#include <atomic>
#include <thread>

namespace flashmark {

class InterruptWatch {
 public:
  InterruptWatch();
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  // Set once SIGINT or SIGTERM was taken; lives as long as the watch.
  const std::atomic<bool>* flag() const { return &interrupted_; }
  bool interrupted() const { return interrupted_.load(); }

 private:
  void Watch();

  std::atomic<bool> interrupted_{false};
  int signal_fd_ = -1;
  int stop_fd_ = -1;  // eventfd: written to stop the thread
  std::thread thread_;
};

}  // namespace flashmark
