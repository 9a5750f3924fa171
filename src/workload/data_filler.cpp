#include "workload/data_filler.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "common/random.h"

namespace flashmark {
namespace {

constexpr size_t kCompressibleUnit = 4096;

// Four xoshiro256++ generators, one per 64-bit lane; four of these make 16.
using Lanes = uint64_t __attribute__((vector_size(32)));
struct Xoshiro {
  Lanes s0, s1, s2, s3;
};
struct Generators {
  Xoshiro quad[4];
};
constexpr size_t kBlockBytes = 4 * sizeof(Lanes);  // one step of all 16

// One step of four generators: 32 bytes to `out`, any alignment.
[[gnu::always_inline]] inline void Step(Xoshiro& s, unsigned char* out) {
  const Lanes sum = s.s0 + s.s3;
  const Lanes result = ((sum << 23) | (sum >> 41)) + s.s0;
  const Lanes t = s.s1 << 17;
  s.s2 ^= s.s0;
  s.s3 ^= s.s1;
  s.s1 ^= s.s2;
  s.s0 ^= s.s3;
  s.s2 ^= t;
  s.s3 = (s.s3 << 45) | (s.s3 >> 19);
  std::memcpy(out, &result, sizeof(result));
}

// Fills `blocks` x 128 bytes at `out` and advances the generators. The four
// quads are independent, so their steps overlap instead of waiting on one
// dependency chain; they live in locals so that the state stays in
// registers. Cloned for AVX2 (256-bit registers) where the CPU has it; the
// default clone does the same arithmetic in pairs of 128-bit registers.
// Not under ThreadSanitizer: the clone's resolver runs while the program is
// being loaded, before TSan's runtime, and crashes in its instrumentation.
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("avx2", "default")))
#endif
void FillBlocks(unsigned char* out, size_t blocks, Generators& g) {
  Xoshiro a = g.quad[0], b = g.quad[1], c = g.quad[2], d = g.quad[3];
  for (size_t i = 0; i < blocks; ++i, out += kBlockBytes) {
    Step(a, out);
    Step(b, out + sizeof(Lanes));
    Step(c, out + 2 * sizeof(Lanes));
    Step(d, out + 3 * sizeof(Lanes));
  }
  g = Generators{{a, b, c, d}};
}

}  // namespace

DataFiller::DataFiller(const DataPattern& pattern, uint64_t seed)
    : pattern_(pattern) {
  static_assert(sizeof(Generators) == sizeof(generators_));
  uint64_t words[sizeof(Generators) / sizeof(uint64_t)];
  Random random(seed);
  for (uint64_t& word : words) word = random.Next();
  Generators generators;
  std::memcpy(&generators, words, sizeof(words));
  new (generators_) Generators(generators);
}

// Whole 128-byte blocks in place; a shorter tail from one more block.
void DataFiller::FillRandom(unsigned char* out, size_t length) {
  auto& generators = *std::launder(reinterpret_cast<Generators*>(generators_));
  const size_t whole = length / kBlockBytes;
  FillBlocks(out, whole, generators);
  if (const size_t tail = length - whole * kBlockBytes; tail > 0) {
    alignas(32) unsigned char block[kBlockBytes];
    FillBlocks(block, 1, generators);
    std::memcpy(out + whole * kBlockBytes, block, tail);
  }
}

void DataFiller::Fill(void* buffer, size_t length) {
  auto* bytes = static_cast<unsigned char*>(buffer);
  switch (pattern_.kind) {
    case DataKind::kZero:
      std::memset(bytes, 0, length);
      return;
    case DataKind::kRandom:
      FillRandom(bytes, length);
      return;
    case DataKind::kCompressible:
      break;
  }
  // Each 4 KiB unit (the last one may be shorter): the first P % zero,
  // rounded to a multiple of 8 bytes, the rest random. Random bytes do not
  // compress, zeros almost vanish, so the data shrinks to about (100-P) %.
  const int percent = std::clamp(pattern_.compressible_percent, 0, 100);
  for (size_t unit = 0; unit < length; unit += kCompressibleUnit) {
    const size_t size = std::min(kCompressibleUnit, length - unit);
    const size_t zeros = std::min(size, (size * percent / 100 + 4) / 8 * 8);
    std::memset(bytes + unit, 0, zeros);
    FillRandom(bytes + unit + zeros, size - zeros);
  }
}

}  // namespace flashmark
