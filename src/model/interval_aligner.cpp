#include "model/interval_aligner.h"

#include <algorithm>

#include "model/interval_merge.h"

namespace flashmark {

IntervalAligner::IntervalAligner(size_t part_count) : next_(part_count, 0) {}

std::optional<IntervalAligner::Lined> IntervalAligner::Next(Parts parts) {
  const size_t n = parts.size();
  if (n == 0) return std::nullopt;
  std::vector<size_t> end = next_;  // one past each part's last sample
  // Every part's samples so far end at common_: each takes one more, then
  // more until all end at one boundary.
  std::vector<uint64_t> reach(n, common_);
  uint64_t target = common_ + 1;
  for (bool moved = true; moved;) {
    moved = false;
    for (size_t p = 0; p < n; ++p) {
      const std::vector<IntervalSample>& samples = *parts[p];
      while (reach[p] < target) {
        if (end[p] >= samples.size() || samples[end[p]].partial) {
          return std::nullopt;
        }
        reach[p] += samples[end[p]].spans;
        ++end[p];
      }
      if (reach[p] > target) {
        target = reach[p];
        moved = true;
      }
    }
  }
  Lined lined;
  for (size_t p = 0; p < n; ++p) {
    const std::vector<IntervalSample>& samples = *parts[p];
    IntervalSample stretch = samples[next_[p]];
    for (size_t k = next_[p] + 1; k < end[p]; ++k) {
      AppendInterval(stretch, samples[k]);
    }
    lined.parts.push_back(std::move(stretch));
  }
  lined.total = lined.parts[0];
  for (size_t p = 1; p < n; ++p) MergeInterval(lined.total, lined.parts[p]);
  lined.total.index = static_cast<uint32_t>(emitted_);
  lined.total.spans = static_cast<uint32_t>(target - common_);
  next_ = std::move(end);
  common_ = target;
  ++emitted_;
  return lined;
}

std::optional<IntervalSample> IntervalAligner::Tail(Parts parts) const {
  std::optional<IntervalSample> tail;
  for (size_t p = 0; p < parts.size(); ++p) {
    const std::vector<IntervalSample>& samples = *parts[p];
    if (next_[p] >= samples.size()) continue;
    IntervalSample stretch = samples[next_[p]];
    for (size_t k = next_[p] + 1; k < samples.size(); ++k) {
      AppendInterval(stretch, samples[k]);
    }
    if (!tail) {
      tail = stretch;
      continue;
    }
    tail->start_ns = std::min(tail->start_ns, stretch.start_ns);
    tail->end_ns = std::max(tail->end_ns, stretch.end_ns);
    MergeInterval(*tail, stretch);
  }
  if (tail) {
    tail->index = static_cast<uint32_t>(emitted_);
    tail->partial = true;
  }
  return tail;
}

}  // namespace flashmark
