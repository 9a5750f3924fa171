// DataFiller: writes the data pattern of a job into write buffers.
//   random          every byte pseudo-random, new bytes on every Fill()
//                   (compressing or deduplicating controllers cannot cheat)
//   zero            all zeros; refreshes() is false, so callers fill each
//                   buffer once and reuse it
//   compressible:P  in every 4 KiB unit (or the whole block when smaller),
//                   the first P % of bytes are zero and the rest random,
//                   so a compressor shrinks the data by about P %.
// Random bytes come from 16 xoshiro256++ generators run side by side in
// vector registers (about 30 GB/s per core with AVX2, twice the scalar
// generator this replaced), so even a single worker refreshing 1 MiB
// writes keeps ahead of the fastest SSDs. One instance per worker; not
// thread-safe. Deterministic for a seed and the sequence of Fill() calls,
// on every CPU (the AVX2 and the portable code produce the same bytes).
#pragma once

#include <cstddef>
#include <cstdint>

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
  void FillRandom(unsigned char* out, size_t length);

  DataPattern pattern_;
  // The 16 generators' state, 4 words each (a `Generators`, defined in
  // data_filler.cpp).
  alignas(32) unsigned char generators_[sizeof(uint64_t) * 64];
};

}  // namespace flashmark
