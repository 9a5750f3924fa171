// Bucket layout shared by every latency histogram (log-linear, in the style
// of HdrHistogram and fio).
//
// Values are nanoseconds. 0..1023 ns have one bucket per nanosecond (exact).
// Above that each power of two [2^e, 2^(e+1)) is split into 512 equal
// buckets, so a bucket is at most 1/512 of its lower bound wide; reporting
// the bucket midpoint bounds the relative error by 1/1024 < 0.098 %.
// The top octave is [2^42, 2^43) ns, so the exact range is 1 ns to
// 8796 s (2 h 26 min); larger values are counted in the last bucket (and
// the histogram's exact max keeps their true value).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>

namespace flashmark::buckets {

inline constexpr int kSubBits = 9;
inline constexpr uint64_t kSubCount = 1ull << kSubBits;  // 512
inline constexpr int kMaxExponent = 42;                  // last octave 2^42
inline constexpr uint32_t kCount =
    2 * kSubCount + (kMaxExponent - kSubBits) * kSubCount;
inline constexpr double kMaxRelativeError = 1.0 / (2 * kSubCount);
inline constexpr uint64_t kMaxExact = (1ull << (kMaxExponent + 1)) - 1;

inline uint32_t IndexOf(uint64_t ns) {
  if (ns < 2 * kSubCount) return static_cast<uint32_t>(ns);
  if (ns > kMaxExact) return kCount - 1;
  const int exponent = 63 - __builtin_clzll(ns);  // >= kSubBits + 1
  const int shift = exponent - kSubBits;
  const uint64_t sub = (ns >> shift) - kSubCount;
  return static_cast<uint32_t>(2 * kSubCount +
                               (exponent - kSubBits - 1) * kSubCount + sub);
}

// Smallest value that falls in bucket `index`.
inline uint64_t LowerBound(uint32_t index) {
  if (index < 2 * kSubCount) return index;
  const uint32_t rest = index - 2 * kSubCount;
  const int exponent = static_cast<int>(rest / kSubCount) + kSubBits + 1;
  const uint64_t sub = rest % kSubCount;
  return (kSubCount + sub) << (exponent - kSubBits);
}

// Largest value that falls in bucket `index`.
inline uint64_t UpperBound(uint32_t index) {
  if (index + 1 >= kCount) return kMaxExact;
  return LowerBound(index + 1) - 1;
}

// The value reported for the bucket: its midpoint.
inline double Midpoint(uint32_t index) {
  return (static_cast<double>(LowerBound(index)) +
          static_cast<double>(UpperBound(index))) /
         2.0;
}

}  // namespace flashmark::buckets
