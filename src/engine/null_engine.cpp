#include "engine/null_engine.h"

#include <algorithm>
#include <string>

namespace flashmark {

Status NullEngine::Prep(const EngineSetup& setup) {
  if (Status tuned = CheckTuning("null", kCapabilities, setup.tuning);
      !tuned.ok()) {
    return tuned;
  }
  const int depth = setup.depth;
  if (depth < 1) {
    return RuntimeError("engine null: queue depth " + std::to_string(depth) +
                            " is not a positive number",
                        "pass an --iodepth of 1 or more");
  }
  depth_ = static_cast<uint32_t>(depth);
  head_ = count_ = uncommitted_ = 0;
  if (depth_ > 1) ring_ = std::make_unique<IoUnit*[]>(depth_);
  return OkStatus();
}

Result<int> NullEngine::Reap(int /*min*/, int max, IoUnit** out) {
  // Everything held is complete, so `min` never needs a wait.
  const uint32_t n = std::min(count_, static_cast<uint32_t>(std::max(max, 0)));
  for (uint32_t i = 0; i < n; ++i) {
    out[i] = ring_[head_];
    if (++head_ == depth_) head_ = 0;
  }
  count_ -= n;
  uncommitted_ = std::min(uncommitted_, count_);
  return static_cast<int>(n);
}

Status NullEngine::Sync(uint32_t /*file*/, FsyncMode /*mode*/) {
  return OkStatus();
}

}  // namespace flashmark
