// LatencyHistogram: a compact (sparse), mergeable latency distribution in
// nanoseconds over the bucket layout of histogram_buckets.h (range 1 ns to
// 2 h 26 min, worst-case relative error of a reported value < 0.1 %).
// A value type: copy, merge and query freely; not thread-safe for writes.
// Percentiles come from merged histograms only, never by averaging.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace flashmark {

class LatencyHistogram {
 public:
  struct Bucket {
    uint32_t index;
    uint64_t count;
  };

  LatencyHistogram() = default;
  // From dense per-bucket counts (size buckets::kCount or less).
  static LatencyHistogram FromDense(std::span<const uint64_t> counts);
  // From sparse buckets; indexes must be strictly increasing.
  static LatencyHistogram FromBuckets(std::vector<Bucket> buckets);

  void Add(uint64_t ns, uint64_t count = 1);
  void Merge(const LatencyHistogram& other);
  // Merges many at once through a dense accumulator: O(total buckets).
  static LatencyHistogram MergeAll(std::span<const LatencyHistogram> parts);

  uint64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  const std::vector<Bucket>& buckets() const { return buckets_; }

  // Value at quantile q in [0, 1] (nearest rank), as a bucket midpoint
  // clamped to [min, max]. 0 when empty.
  double Quantile(double q) const;
  double Mean() const;  // from bucket midpoints
  double Min() const;   // lower bound of the lowest bucket
  double Max() const;   // upper bound of the highest bucket

 private:
  std::vector<Bucket> buckets_;  // strictly increasing index, count > 0
  uint64_t count_ = 0;
};

// Merges many histograms one by one through dense counters (~140 KiB), in
// O(total buckets), without keeping the parts. Not thread-safe.
class LatencyAccumulator {
 public:
  LatencyAccumulator();
  void Add(const LatencyHistogram& part);
  LatencyHistogram Result() const;

 private:
  std::vector<uint64_t> dense_;
  uint32_t lowest_;
  uint32_t highest_ = 0;
};

}  // namespace flashmark
