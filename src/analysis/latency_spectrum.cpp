#include "analysis/latency_spectrum.h"

#include <algorithm>
#include <cmath>

namespace flashmark {

std::vector<SpectrumPoint> PercentileSpectrum(const LatencyHistogram& histogram,
                                              int ticks_per_half) {
  std::vector<SpectrumPoint> points;
  const double count = static_cast<double>(histogram.count());
  if (count < 2) return points;
  ticks_per_half = std::max(1, ticks_per_half);
  const double max = histogram.Max();
  // From the median (1 - p = 1/2) while at least one IO lies beyond.
  for (int k = ticks_per_half;; ++k) {
    const double rest = std::exp2(-static_cast<double>(k) / ticks_per_half);
    if (count * rest < 1) break;
    const double q = 1 - rest;
    points.push_back({100 * q, std::min(histogram.Quantile(q), max),
                      count * rest, count * rest < kFewBeyond});
  }
  // The slowest IO, at 1 - 1/count.
  const double q = 1 - 1 / count;
  if (points.empty() || points.back().percentile < 100 * q) {
    points.push_back({100 * q, max, 1, 1 < kFewBeyond});
  }
  return points;
}

}  // namespace flashmark
