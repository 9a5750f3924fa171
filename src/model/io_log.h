// IoLog: the IOs one worker completed whole, with their own stamps, for
// --trace-latency to join with the block layer's events (model/
// latency_tracer.h). Threading: one producer (the worker: Push, a copy
// and a release store, no lock) and one consumer (the tracer: Drain).
// Memory: `capacity` entries (rounded up to a power of two) of 32 bytes,
// made only for traced runs, touched only as they are used
// (IoLogCapacity). A full log drops the IO (the tracer counts it
// untraced): the tracer drains every 50 ms, so 64k entries overflow only
// past a million IOs a second from one worker.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace flashmark {

// No member initializers: a log's slots stay untouched until used.
struct LoggedIo {
  uint64_t submit_ticks;  // the worker's CycleClock
  uint64_t done_ticks;
  uint64_t offset;  // bytes into the file
  uint32_t file;    // index into the run's files
  uint32_t length;  // bytes
};

// Entries per worker for `workers` of them: 64k each up to 16 workers, then
// a million shared (a thread of 4096 does not make 100k IOs a second
// alone), at least 1024.
inline size_t IoLogCapacity(size_t workers) {
  const size_t shared = (size_t{1} << 20) / (workers == 0 ? 1 : workers);
  return std::clamp<size_t>(shared, 1024, size_t{1} << 16);
}

class IoLog {
 public:
  explicit IoLog(size_t capacity = size_t{1} << 16)
      : mask_(std::bit_ceil(capacity) - 1),
        slots_(std::make_unique_for_overwrite<LoggedIo[]>(mask_ + 1)) {}

  void Push(const LoggedIo& io) {
    const uint64_t head = head_.load(std::memory_order_relaxed);
    if (head - tail_seen_ > mask_) {
      tail_seen_ = tail_.load(std::memory_order_acquire);
      if (head - tail_seen_ > mask_) {
        dropped_.store(dropped_.load(std::memory_order_relaxed) + 1,
                       std::memory_order_relaxed);
        return;
      }
    }
    slots_[head & mask_] = io;
    head_.store(head + 1, std::memory_order_release);
  }

  // Calls `each(const LoggedIo&)` for every IO pushed since the last
  // Drain, oldest first; returns how many.
  template <typename Each>
  size_t Drain(Each&& each) {
    const uint64_t head = head_.load(std::memory_order_acquire);
    uint64_t tail = tail_.load(std::memory_order_relaxed);
    const size_t count = head - tail;
    for (; tail != head; ++tail) each(slots_[tail & mask_]);
    tail_.store(tail, std::memory_order_release);
    return count;
  }

  // IOs dropped because the log was full (read by the consumer).
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  const uint64_t mask_;
  std::unique_ptr<LoggedIo[]> slots_;
  alignas(64) std::atomic<uint64_t> head_{0};  // the producer's
  uint64_t tail_seen_ = 0;                     // the producer's view
  std::atomic<uint64_t> dropped_{0};
  alignas(64) std::atomic<uint64_t> tail_{0};  // the consumer's
};

}  // namespace flashmark
