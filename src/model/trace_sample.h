// TraceSample: which IOs a sampled --trace-latency follows (--trace-sample
// N): 1 in N by where the IO lies on its disk. The disk is cut in windows
// of the largest IO's size (rounded up to a power of two of sectors); an
// IO is followed when its first sector lies in every N-th window, that is
// when `sector & mask` is zero. The kernel tests the same on each block
// event (the filter `!(sector & mask)`), so the events of the IOs not
// followed never reach the trace buffer: they cost the tracepoint's call,
// its fields and the filter, not the recording and the reading. A request the
// kernel split or merged across two windows is then not found whole, and its IO
// counts as untraced. A plain value; sectors of 512 bytes.
#pragma once

#include <bit>
#include <cstdint>

namespace flashmark {

struct TraceSample {
  uint32_t one_in = 1;  // a power of two; 1: every IO
  uint64_t mask = 0;    // of a first sector; 0: every IO

  // 1 in `one_in` of IOs of at most `largest_io_bytes`; `one_in` is a
  // power of two (JobSpec::trace_sample).
  static TraceSample OneIn(uint32_t one_in, uint64_t largest_io_bytes) {
    const uint64_t sectors = (largest_io_bytes + 511) / 512;
    // (std::bit_ceil(0) is 1: an IO under a sector has windows of one.)
    const int window = std::countr_zero(std::bit_ceil(sectors));
    return {one_in, uint64_t{one_in - 1} << window};
  }
  bool Follows(uint64_t sector) const { return (sector & mask) == 0; }
  // The windows' size: the mask's lowest bit, in bytes.
  uint64_t WindowBytes() const { return 512 * (mask & (~mask + 1)); }
};

}  // namespace flashmark
