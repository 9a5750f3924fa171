#include "model/latency_histogram.h"

#include <algorithm>
#include <cmath>

#include "model/histogram_buckets.h"

namespace flashmark {

LatencyHistogram LatencyHistogram::FromDense(std::span<const uint64_t> counts) {
  LatencyHistogram histogram;
  const size_t in_range = std::min<size_t>(counts.size(), buckets::kCount);
  for (size_t i = 0; i < in_range; ++i) {
    if (counts[i] == 0) continue;
    histogram.buckets_.push_back({static_cast<uint32_t>(i), counts[i]});
    histogram.count_ += counts[i];
  }
  // Precondition violated (too many counters): fold the excess into the
  // last bucket, as values beyond the range are.
  uint64_t excess = 0;
  for (size_t i = in_range; i < counts.size(); ++i) excess += counts[i];
  if (excess > 0) histogram.Add(buckets::kMaxExact + 1, excess);
  return histogram;
}

LatencyHistogram LatencyHistogram::FromBuckets(std::vector<Bucket> buckets) {
  LatencyHistogram histogram;
  bool canonical = true;
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (buckets[i].count == 0 || buckets[i].index >= buckets::kCount ||
        (i > 0 && buckets[i].index <= buckets[i - 1].index)) {
      canonical = false;
      break;
    }
  }
  if (canonical) {
    for (const Bucket& bucket : buckets) histogram.count_ += bucket.count;
    histogram.buckets_ = std::move(buckets);
    return histogram;
  }
  // Precondition violated: normalise rather than store a broken invariant.
  for (const Bucket& bucket : buckets) {
    const uint32_t index = std::min(bucket.index, buckets::kCount - 1);
    histogram.Add(buckets::LowerBound(index), bucket.count);
  }
  return histogram;
}

void LatencyHistogram::Add(uint64_t ns, uint64_t count) {
  if (count == 0) return;
  const uint32_t index = buckets::IndexOf(ns);
  count_ += count;
  if (buckets_.empty() || buckets_.back().index < index) {
    buckets_.push_back({index, count});  // the common, in-order case
    return;
  }
  const auto it = std::lower_bound(
      buckets_.begin(), buckets_.end(), index,
      [](const Bucket& bucket, uint32_t key) { return bucket.index < key; });
  if (it != buckets_.end() && it->index == index) {
    it->count += count;
  } else {
    buckets_.insert(it, {index, count});
  }
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.empty()) return;
  if (empty()) {
    *this = other;
    return;
  }
  std::vector<Bucket> merged;
  merged.reserve(buckets_.size() + other.buckets_.size());
  auto a = buckets_.begin();
  auto b = other.buckets_.begin();
  while (a != buckets_.end() && b != other.buckets_.end()) {
    if (a->index < b->index) {
      merged.push_back(*a++);
    } else if (b->index < a->index) {
      merged.push_back(*b++);
    } else {
      merged.push_back({a->index, a->count + b->count});
      ++a;
      ++b;
    }
  }
  merged.insert(merged.end(), a, buckets_.end());
  merged.insert(merged.end(), b, other.buckets_.end());
  buckets_ = std::move(merged);
  count_ += other.count_;
}

LatencyHistogram LatencyHistogram::MergeAll(
    std::span<const LatencyHistogram> parts) {
  LatencyAccumulator accumulator;
  for (const LatencyHistogram& part : parts) accumulator.Add(part);
  return accumulator.Result();
}

LatencyAccumulator::LatencyAccumulator()
    : dense_(buckets::kCount, 0), lowest_(buckets::kCount) {}

void LatencyAccumulator::Add(const LatencyHistogram& part) {
  if (part.empty()) return;
  lowest_ = std::min(lowest_, part.buckets().front().index);
  highest_ = std::max(highest_, part.buckets().back().index);
  for (const auto& bucket : part.buckets())
    dense_[bucket.index] += bucket.count;
}

LatencyHistogram LatencyAccumulator::Result() const {
  if (lowest_ > highest_) return LatencyHistogram();
  std::vector<LatencyHistogram::Bucket> merged;
  for (uint32_t i = lowest_; i <= highest_; ++i) {
    if (dense_[i] != 0) merged.push_back({i, dense_[i]});
  }
  return LatencyHistogram::FromBuckets(std::move(merged));
}

double LatencyHistogram::Quantile(double q) const {
  if (empty()) return 0;
  q = std::clamp(q, 0.0, 1.0);
  const double exact_rank = std::ceil(q * static_cast<double>(count_));
  const uint64_t rank =
      std::clamp<uint64_t>(static_cast<uint64_t>(exact_rank), 1, count_);
  uint64_t seen = 0;
  uint32_t index = buckets_.back().index;
  for (const Bucket& bucket : buckets_) {
    seen += bucket.count;
    if (seen >= rank) {
      index = bucket.index;
      break;
    }
  }
  return std::clamp(buckets::Midpoint(index), Min(), Max());
}

double LatencyHistogram::Mean() const {
  if (empty()) return 0;
  double sum = 0;
  for (const Bucket& bucket : buckets_) {
    sum += buckets::Midpoint(bucket.index) * static_cast<double>(bucket.count);
  }
  return sum / static_cast<double>(count_);
}

double LatencyHistogram::Min() const {
  if (empty()) return 0;
  return static_cast<double>(buckets::LowerBound(buckets_.front().index));
}

double LatencyHistogram::Max() const {
  if (empty()) return 0;
  return static_cast<double>(buckets::UpperBound(buckets_.back().index));
}

}  // namespace flashmark
