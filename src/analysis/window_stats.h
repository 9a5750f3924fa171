// Statistics of one analysed window of a per-interval series (the figures
// `analyze` prints for the steady-state window).
//
// Quantiles: type 7 (quantiles.h). Median CI: circular block bootstrap,
// percentile interval (bootstrap.h), with the given options. Mean:
// arithmetic. Standard deviation: sample, sqrt(sum (x - mean)^2 / (n - 1)),
// two-pass; 0 for n < 2. CV = stddev / |mean| (a fraction; 0 when the mean
// is 0). Band = p95 - p5, also as a percentage of |median| (0 when the
// median is 0).
// Units: the series' unit. Complexity: O(n log n) for the sort plus the
// bootstrap's cost; O(n) memory.
#pragma once

#include <cstddef>
#include <span>

#include "analysis/bootstrap.h"

namespace flashmark {

struct WindowStats {
  size_t count = 0;
  double median = 0;
  ConfidenceInterval median_ci;
  double p25 = 0, p75 = 0, iqr = 0;
  double p5 = 0, p95 = 0;
  double min = 0, max = 0;
  double mean = 0;
  double stddev = 0;
  double cv = 0;
  double band_width = 0;          // p95 - p5
  double band_width_percent = 0;  // of |median|
};

// Empty input: all zero.
WindowStats ComputeWindowStats(std::span<const double> values,
                               const BootstrapOptions& bootstrap = {});

}  // namespace flashmark
