#include "model/live_histogram.h"

namespace flashmark {

LiveHistogram::LiveHistogram()
    : counts_(std::make_unique<std::atomic<uint64_t>[]>(buckets::kCount)) {}

void LiveHistogram::Snapshot(std::vector<uint64_t>& out) const {
  out.resize(buckets::kCount);
  for (uint32_t i = 0; i < buckets::kCount; ++i) {
    out[i] = counts_[i].load(std::memory_order_relaxed);
  }
}

}  // namespace flashmark
