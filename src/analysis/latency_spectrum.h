// The percentile spectrum of a latency distribution ("nines" plot, as
// HdrHistogram draws it): latency against 1 / (1 - percentile), so 90 %,
// 99 %, 99.9 % ... sit at even steps of a log axis. Points run from the
// median at ticks_per_half steps per halving of the remaining fraction,
// up to the slowest IO. Each value is clamped to the recorded maximum,
// and says how many IOs lie beyond it: with fewer than kFewBeyond the
// point rests on a handful of IOs and is marked `few`, not to be read as
// an exact percentile. Pure; thread-safe.
#pragma once

#include <vector>

#include "model/latency_histogram.h"

namespace flashmark {

struct SpectrumPoint {
  double percentile = 0;  // 50 .. 100 (exclusive), percent
  double ns = 0;          // the latency at that percentile
  double beyond = 0;      // IOs slower than it: count x (1 - percentile)
  bool few = false;       // beyond < kFewBeyond
};

inline constexpr double kFewBeyond = 10;

std::vector<SpectrumPoint> PercentileSpectrum(const LatencyHistogram& histogram,
                                              int ticks_per_half = 5);

}  // namespace flashmark
