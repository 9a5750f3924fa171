// Xoshiro256**: the fast, statistically solid PRNG behind offsets, block
// size choices and data patterns. Deterministic for a given seed; one
// instance per thread (not thread-safe).
#pragma once

#include <cstdint>

namespace flashmark {

class Random {
 public:
  explicit Random(uint64_t seed) {
    // SplitMix64 expands the seed into the four words of state.
    for (auto& word : state_) {
      seed += 0x9e3779b97f4a7c15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      word = z ^ (z >> 31);
    }
  }

  uint64_t Next() {
    const uint64_t result = Rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, bound) by Lemire's multiply-shift (bias < 2^-64 * bound).
  uint64_t Below(uint64_t bound) {
    __extension__ using Wide = unsigned __int128;
    return static_cast<uint64_t>((static_cast<Wide>(Next()) * bound) >> 64);
  }

  // Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

}  // namespace flashmark
