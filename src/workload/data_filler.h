// DataFiller: writes the data pattern of a job into write buffers.
//   random          every byte pseudo-random, new bytes on every Fill()
//                   (compressing or deduplicating controllers cannot cheat)
//   zero            all zeros; refreshes() is false, so callers fill each
//                   buffer once and reuse it
//   compressible:P  in every 4 KiB unit (or the whole block when smaller),
//                   the first P % of bytes are zero and the rest random,
//                   so a compressor shrinks the data by about P %.
// One instance per worker; not thread-safe. Deterministic for a seed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/random.h"
#include "model/io_pattern.h"

namespace flashmark {

class DataFiller {
 public:
  DataFiller(const DataPattern& pattern, uint64_t seed);
  // Fills `length` bytes at `buffer` (8-byte aligned) with fresh data.
  void Fill(void* buffer, size_t length);
  // True when Fill() must run before every write (random content).
  bool refreshes() const { return pattern_.kind != DataKind::kZero; }

 private:
  DataPattern pattern_;
  Random random_;
};

}  // namespace flashmark
