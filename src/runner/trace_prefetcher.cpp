#include "runner/trace_prefetcher.h"

#include <pthread.h>

namespace flashmark {

TracePrefetcher::TracePrefetcher(TraceIoSource& source, size_t ahead)
    : source_(source), ahead_(ahead == 0 ? 1 : ahead) {
  thread_ = std::thread([this] { Fill(); });
}

TracePrefetcher::~TracePrefetcher() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void TracePrefetcher::Fill() {
  pthread_setname_np(pthread_self(), "fm-trace-read");
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return stop_ || ready_.size() < ahead_; });
      if (stop_) return;
    }
    std::vector<TracedIo> chunk;
    Status read = source_.Next(chunk);
    std::lock_guard lock(mutex_);
    if (!read.ok()) error_ = read.error();
    if (!read.ok() || chunk.empty()) {
      done_ = true;
      changed_.notify_all();
      return;
    }
    ready_.push_back(std::move(chunk));
    changed_.notify_all();
  }
}

const TracedIo* TracePrefetcher::NextChunk() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !ready_.empty() || done_; });
  if (ready_.empty()) return nullptr;
  current_ = std::move(ready_.front());
  ready_.pop_front();
  lock.unlock();
  changed_.notify_all();
  at_ = 0;
  return Next();
}

std::optional<Error> TracePrefetcher::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

}  // namespace flashmark
