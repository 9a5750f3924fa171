// LiveHistogram: the recording side of a latency histogram, one per worker
// and measure. Dense, fixed size (buckets::kCount counters, ~140 KiB).
//
// Threading: exactly one writer thread calls Record(); any thread may call
// Snapshot() concurrently. Counters are cumulative and written with relaxed
// single-writer stores (no locked instructions on the IO path); a reader
// sees each counter either before or after an increment, never torn, and
// takes interval deltas against its own previous snapshot.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/histogram_buckets.h"

namespace flashmark {

class LiveHistogram {
 public:
  LiveHistogram();

  void Record(uint64_t ns) {
    auto& counter = counts_[buckets::IndexOf(ns)];
    counter.store(counter.load(std::memory_order_relaxed) + 1,
                  std::memory_order_relaxed);
    if (ns > max_ns_.load(std::memory_order_relaxed)) {
      max_ns_.store(ns, std::memory_order_relaxed);
    }
  }

  // Copies the cumulative counts into `out` (resized to buckets::kCount).
  void Snapshot(std::vector<uint64_t>& out) const;
  // Largest value ever recorded, exact.
  uint64_t max_ns() const { return max_ns_.load(std::memory_order_relaxed); }

 private:
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;
  std::atomic<uint64_t> max_ns_{0};
};

}  // namespace flashmark
