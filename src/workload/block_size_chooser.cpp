#include "workload/block_size_chooser.h"

#include <cassert>

namespace flashmark {

// Sizes with a zero weight are dropped (they could never be drawn). The
// weights are scaled to percent, so a mix whose weights do not add up to
// exactly 100 still keeps its proportions (to the nearest percent).
BlockSizeChooser::BlockSizeChooser(const std::vector<BlockSizeWeight>& mix,
                                   uint64_t seed)
    : random_(seed) {
  assert(!mix.empty());
  uint64_t total = 0;
  for (const BlockSizeWeight& entry : mix) total += entry.weight;
  uint64_t running = 0;
  for (const BlockSizeWeight& entry : mix) {
    if (entry.weight == 0) continue;
    running += entry.weight;
    sizes_.push_back(entry.bytes);
    cumulative_.push_back(
        static_cast<uint32_t>((running * 100 + total / 2) / total));
  }
  if (sizes_.empty()) {  // all weights zero: take the first size
    sizes_.push_back(mix.front().bytes);
    cumulative_.push_back(100);
  }
  cumulative_.back() = 100;
}

}  // namespace flashmark
