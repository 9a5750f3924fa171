// LiveHistogram: the recording side of a latency histogram, one per worker
// and measure. Cumulative counters over the bucket layout of
// histogram_buckets.h, read sparsely: beside the counters it keeps a bitmap
// of the buckets ever recorded into, so a reader visits those only (a run's
// latencies fill a few hundred of the 17,920 buckets), never the whole
// ~140 KiB. The counters live in an anonymous mapping whose pages the
// kernel zeroes on first touch: an untouched bucket costs neither memory
// nor time, so thousands of workers start at once.
//
// Threading: exactly one writer thread calls Record(); any thread may read
// (ForEachBucket, Snapshot) concurrently. Counters and bitmap are written
// with relaxed single-writer stores (no locked instructions on the IO
// path); a reader sees each counter before or after an increment, never
// torn, and takes interval deltas against what it saw before. Bits are
// only ever set, so what a reader sees of a bucket never decreases; one
// that misses a bit set just now sees that bucket's count next time, and
// one ordered after the writer's later release store (the worker's IO
// counters) sees every bucket and count recorded before it.
// Ownership: owns its mapping. Movable only by pointer (not copyable).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "model/histogram_buckets.h"

namespace flashmark {

class LiveHistogram {
 public:
  // Bitmap words: one bit per bucket.
  static constexpr uint32_t kWords = (buckets::kCount + 63) / 64;

  LiveHistogram();
  ~LiveHistogram();
  LiveHistogram(const LiveHistogram&) = delete;
  LiveHistogram& operator=(const LiveHistogram&) = delete;

  void Record(uint64_t ns) {
    const uint32_t index = buckets::IndexOf(ns);
    std::atomic_ref<uint64_t> counter(counts_[index]);
    counter.store(counter.load(std::memory_order_relaxed) + 1,
                  std::memory_order_relaxed);
    std::atomic<uint64_t>& word = touched_[index / 64];
    const uint64_t bit = uint64_t{1} << (index % 64);
    const uint64_t seen = word.load(std::memory_order_relaxed);
    if ((seen & bit) == 0) word.store(seen | bit, std::memory_order_relaxed);
    if (ns > max_ns_.load(std::memory_order_relaxed)) {
      max_ns_.store(ns, std::memory_order_relaxed);
    }
  }

  // Calls visit(index, cumulative count) for every bucket ever recorded
  // into, in increasing index order.
  template <typename Visit>
  void ForEachBucket(Visit&& visit) const {
    for (uint32_t w = 0; w < kWords; ++w) {
      for (uint64_t bits = touched_[w].load(std::memory_order_relaxed);
           bits != 0; bits &= bits - 1) {
        const uint32_t index = w * 64 + __builtin_ctzll(bits);
        visit(index, std::atomic_ref<const uint64_t>(counts_[index])
                         .load(std::memory_order_relaxed));
      }
    }
  }

  // Copies the cumulative counts into `out` (resized to buckets::kCount).
  void Snapshot(std::vector<uint64_t>& out) const;
  // Largest value ever recorded, exact.
  uint64_t max_ns() const { return max_ns_.load(std::memory_order_relaxed); }

 private:
  uint64_t* counts_;  // buckets::kCount, in a mapping of their own
  std::atomic<uint64_t> touched_[kWords] = {};
  std::atomic<uint64_t> max_ns_{0};
};

}  // namespace flashmark
