#include "runner/output_thread.h"

namespace flashmark {

OutputThread::OutputThread(std::span<RunObserver* const> observers,
                           RunResult header)
    : observers_(observers.begin(), observers.end()),
      header_(std::move(header)) {
  header_.intervals.clear();
  thread_ = std::thread([this] { Loop(); });
}

OutputThread::~OutputThread() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void OutputThread::Post(IntervalSample sample) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(sample));
  }
  wake_.notify_one();
}

void OutputThread::Finish(const RunResult& run) {
  {
    std::lock_guard lock(mutex_);
    final_ = &run;
    closing_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void OutputThread::Loop() {
  for (RunObserver* observer : observers_) observer->OnStart(header_);
  for (;;) {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [this] { return !queue_.empty() || closing_; });
    if (queue_.empty()) {
      const RunResult* run = final_;
      lock.unlock();
      if (run != nullptr) {
        for (RunObserver* observer : observers_) observer->OnEnd(*run);
      }
      return;
    }
    const IntervalSample sample = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    for (RunObserver* observer : observers_) {
      observer->OnInterval(header_, sample);
    }
  }
}

}  // namespace flashmark
