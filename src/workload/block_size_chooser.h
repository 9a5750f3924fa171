// Chooses the size of each IO from a block-size mix (e.g. 4k/60:64k/40)
// by weight. One instance per worker; deterministic for a given seed.
#pragma once

#include <cstdint>
#include <vector>

#include "common/random.h"
#include "model/io_pattern.h"

namespace flashmark {

class BlockSizeChooser {
 public:
  BlockSizeChooser(const std::vector<BlockSizeWeight>& mix, uint64_t seed);
  uint32_t Next() {
    if (sizes_.size() == 1) return sizes_[0];
    const uint64_t draw = random_.Below(100);
    for (size_t i = 0; i + 1 < sizes_.size(); ++i) {
      if (draw < cumulative_[i]) return sizes_[i];
    }
    return sizes_.back();
  }

 private:
  std::vector<uint32_t> sizes_;
  std::vector<uint32_t> cumulative_;  // percent, increasing, last = 100
  Random random_;
};

}  // namespace flashmark
