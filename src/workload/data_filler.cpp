#include "workload/data_filler.h"

#include <algorithm>
#include <cstring>

namespace flashmark {
namespace {

constexpr size_t kCompressibleUnit = 4096;
__extension__ using Uint128 = unsigned __int128;  // GCC/Clang builtin

// One step of wyrand: a Weyl counter through a 64x64->128 multiply. Only
// the add sits on the dependency chain, so filling runs at the
// multiplier's throughput (about 1.4 us per 16 KiB on the development VM).
inline uint64_t WyRand(uint64_t& state) {
  state += 0xa0761d6478bd642full;
  const Uint128 product =
      static_cast<Uint128>(state) * (state ^ 0xe7037ed1a0b428dbull);
  return static_cast<uint64_t>(product >> 64) ^ static_cast<uint64_t>(product);
}

struct Streams {
  uint64_t a;
  uint64_t b;
};

// Fills `pairs` x 16 bytes from two interleaved streams. Kept out of line
// and free of other code on purpose: GCC 12 otherwise spills the 128-bit
// products to the stack and runs about 40 % slower.
[[gnu::noinline]] Streams FillPairs(uint64_t* words, size_t pairs,
                                    Streams streams) {
  for (size_t i = 0; i < pairs; ++i) {
    words[2 * i] = WyRand(streams.a);
    words[2 * i + 1] = WyRand(streams.b);
  }
  return streams;
}

// Fills [out, out + length) with pseudo-random bytes; `out` is 8-byte
// aligned. The streams advance, so consecutive calls continue them.
void FillRandom(unsigned char* out, size_t length, Streams& streams) {
  const size_t pairs = length / 16;
  // Stores through uint64_t*: through a char pointer (which may alias the
  // states) they would force the states through memory at every step.
  streams = FillPairs(reinterpret_cast<uint64_t*>(out), pairs, streams);
  for (size_t at = pairs * 16; at < length; at += 8) {
    const uint64_t word = WyRand(streams.a);
    std::memcpy(out + at, &word, std::min<size_t>(8, length - at));
  }
}

}  // namespace

DataFiller::DataFiller(const DataPattern& pattern, uint64_t seed)
    : pattern_(pattern), random_(seed) {}

void DataFiller::Fill(void* buffer, size_t length) {
  auto* bytes = static_cast<unsigned char*>(buffer);
  switch (pattern_.kind) {
    case DataKind::kZero:
      std::memset(bytes, 0, length);
      return;
    case DataKind::kRandom: {
      Streams streams{random_.Next(), random_.Next()};
      FillRandom(bytes, length, streams);
      return;
    }
    case DataKind::kCompressible:
      break;
  }
  // Each 4 KiB unit (the last one may be shorter): the first P % zero,
  // rounded to a multiple of 8 bytes, the rest random. Random bytes do not
  // compress, zeros almost vanish, so the data shrinks to about (100-P) %.
  const int percent = std::clamp(pattern_.compressible_percent, 0, 100);
  Streams streams{random_.Next(), random_.Next()};
  for (size_t unit = 0; unit < length; unit += kCompressibleUnit) {
    const size_t size = std::min(kCompressibleUnit, length - unit);
    const size_t zeros = std::min(size, (size * percent / 100 + 4) / 8 * 8);
    std::memset(bytes + unit, 0, zeros);
    FillRandom(bytes + unit + zeros, size - zeros, streams);
  }
}

}  // namespace flashmark
