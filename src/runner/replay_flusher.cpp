#include "runner/replay_flusher.h"

#include <fmt/format.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace flashmark {

ReplayFlusher::ReplayFlusher(std::span<const IoFile> files,
                             SingleWriterCounter& fsyncs, RunControl& control)
    : files_(files), fsyncs_(fsyncs), control_(control) {
  thread_ = std::thread([this] { Loop(); });
}

ReplayFlusher::~ReplayFlusher() { Finish(); }

void ReplayFlusher::Request(uint32_t file) {
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(file);
  }
  wake_.notify_one();
}

uint64_t ReplayFlusher::Finish() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  return done_;
}

void ReplayFlusher::Loop() {
  pthread_setname_np(pthread_self(), "fm-flush");
  for (;;) {
    uint32_t file = 0;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return closing_ || !pending_.empty(); });
      if (pending_.empty()) return;
      file = pending_.front();
      pending_.pop_front();
    }
    const IoFile& target = files_[file];
    if (fdatasync(target.fd) != 0) {
      const int error = errno;
      control_.Fail(RunError{
          fmt::format("flushing ({}) {}", std::strerror(error), target.path),
          target.path, 0, error});
      continue;
    }
    fsyncs_.Add(1);
    std::lock_guard lock(mutex_);
    ++done_;
  }
}

}  // namespace flashmark
