// Quantiles of a sample of interval values (pure functions).
// Method: linear interpolation between order statistics, Hyndman & Fan
// type 7 (R's default, numpy's "linear"): h = (n - 1) q, x[floor h] +
// (h - floor h) (x[floor h + 1] - x[floor h]) on the sorted sample.
#pragma once

#include <span>
#include <vector>

#include "model/run_result.h"

namespace flashmark {

// `sorted` must be ascending and non-empty; q in [0, 1].
double QuantileOfSorted(std::span<const double> sorted, double q);

// Median, quartiles, p5/p95, min/max and mean of `values` (any order).
// An empty sample gives a zero summary with count 0.
SeriesSummary SummarizeSeries(std::vector<double> values);

}  // namespace flashmark
