// Adjacent-segment significance tests of candidate change points on a
// per-interval series whose noise is autocorrelated (per-second throughput
// is), differs from one regime to the next (a regime after a garbage-
// collection cliff is often much noisier than the one before) and has
// occasional spikes (a stalled second). Used by change_points.h to decide
// which candidate changes are regimes; pure functions, thread-safe.
//
// Method.
// 1. Clamping. Each value is clamped to the running median (a centred
//    window of `clamp_block` values, cut at the series' ends) +- 4 robust
//    scales (per block of `clamp_block` values: 1.4826 * the median
//    absolute deviation from the running median), so that a stall weighs
//    as much as a 4-sigma value, each block keeps its own noise level,
//    and a step stays where it is (a median filter keeps edges).
// 2. Statistic. For a boundary b between adjacent segments A = [a, b) and
//    B = [b, c) of the clamped values y, with means m_A, m_B and long-run
//    variances V_A, V_B (below):
//      z = |m_B - m_A| / sqrt(V_A / n_A + V_B / n_B)
//    (Welch's statistic with the variance of a mean of dependent values:
//    Var(mean of n) ~ V / n, V = sum over all lags of the autocovariance.)
// 3. Long-run variance of one segment, the larger of two estimates, so
//    that neither short-range (AR-like) nor slower dependence reads as a
//    change:
//    - AR(1) (Andrews & Monahan 1992, prewhitening with an AR(1) model):
//        V = gamma_0 (1 + rho) / (1 - rho), rho = gamma_1 / gamma_0 plus its
//        small-sample bias (1 + 3 rho) / n (Kendall 1954), clamped to
//        [0, 0.95]; gamma_0 divided by (1 - kappa / n), kappa = (1 + rho) /
//        (1 - rho), for the mean the segment's own values took out;
//    - batch means (Schmeiser 1982): batch_length * the sample variance of
//        the means of consecutive batches of batch_length values, when the
//        segment holds at least 8 batches.
// 4. Backward elimination: while the boundary with the smallest z is below
//    the critical value, its two segments merge and the statistics of its
//    neighbours are recomputed. What remains are changes whose two sides
//    differ by more than their own noise allows.
// Critical value: the boundaries were placed by a search over positions,
// so z is the maximum of a standardised CUSUM, not a normal deviate; its
// upper tail grows like sqrt(2 ln(n / m)) (Csorgo & Horvath 1997, ch. 1),
// n values and minimum segment m. The default is
//   critical_z = sqrt(2 ln(n / m)) + 2.2,
// calibrated on flat series (iid, AR(1) with phi up to 0.8, spikes; noise
// up to 12 % of the mean; 100 to 86,400 values) to report a false change in
// well under 2 % of series (bench/analysis_truth.cpp prints the rates).
//
// Units: values in any unit; z is dimensionless.
// Complexity: O(n clamp_block) for clamping (a median per value), O(n)
// for prefix sums; each statistic costs O(1) for the AR(1) estimate plus
// O(segment / batch_length) for the batch means; elimination recomputes
// two statistics per merge.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace flashmark {

struct SignificanceOptions {
  size_t min_segment = 60;   // m above (intervals)
  size_t clamp_block = 30;   // values per clamping block
  size_t batch_length = 20;  // values per batch of the batch-means estimate
  double critical_z = 0;     // > 0: used as is; 0: the default above
};

// The default critical value above for n values and minimum segment m.
double DefaultCriticalZ(size_t n, size_t min_segment);

// Values clamped as in step 1.
std::vector<double> ClampSpikes(std::span<const double> x, size_t block);

// Long-run variance (step 3) of the values y (already clamped), in the
// values' unit squared; 0 for fewer than 3 values.
double LongRunVariance(std::span<const double> y, size_t batch_length);

// Statistic z of the boundary between a = y[first, at) and b = y[at, end).
double AdjacentZ(std::span<const double> y, size_t first, size_t at, size_t end,
                 size_t batch_length);

// Trend test: the least-squares slope of y against its index divided by
// its standard error sqrt(V / sum (x - mean x)^2), V the long-run variance
// (step 3) of the residuals about the line, as a normal deviate with the
// sign of the slope; 0 for fewer than 4 values. "The remaining trend is
// within the noise" when |TrendZ| is small.
double TrendZ(std::span<const double> y, size_t batch_length);

// Geweke's convergence diagnostic (Geweke 1992): the statistic above for
// the first tenth of y against its last half, signed (positive when the
// first tenth is higher). A warm-up's remnant lies at the start of a
// window, where a straight line over the whole window dilutes it; this
// sees it. 0 for fewer than 20 values.
double SettledZ(std::span<const double> y, size_t batch_length);

// Step 4 on the segments that start at `starts` (ascending, starts[0] ==
// 0) over the clamped values y; returns the surviving starts and, for
// each change (starts[1..]), its z in `z` when not null.
std::vector<size_t> EliminateInsignificant(std::span<const double> y,
                                           std::vector<size_t> starts,
                                           const SignificanceOptions& options,
                                           std::vector<double>* z = nullptr);

}  // namespace flashmark
