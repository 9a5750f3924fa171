// Confidence intervals of medians of autocorrelated per-interval series by
// the circular block bootstrap (Politis & Romano 1992, "A circular block-
// resampling procedure for stationary data"), percentile interval (Efron &
// Tibshirani 1993, ch. 13).
//
// Method. A resample of a series of n values is the concatenation of
// ceil(n / L) blocks of L consecutive values, each starting at a uniform
// position in [0, n) and wrapping around the end; the last block is cut so
// that the resample has n values. Its statistic is the median (type 7, as
// in quantiles.h). Over B resamples the interval is the type-7 quantiles
// (1 - c) / 2 and (1 + c) / 2 of the B statistics; the point estimate is the
// statistic of the original series.
// Block length: L = max(1, round(n^(1/3))) unless given: 44 for a day of
// 1 s samples. n^(1/3) is the MSE-optimal order for the bootstrap variance
// of a statistic (Hall, Horowitz & Jing 1995, Biometrika 82(3)); for
// distribution estimates shorter blocks (n^(1/4), n^(1/5)) are optimal,
// so the rule errs on the long, conservative side for dependent data.
// L = 1 is the ordinary iid bootstrap.
// The ratio of medians resamples each series independently (they come from
// different runs) and takes median(resample A) / median(resample B).
//
// Determinism: the same values, options and seed give the same interval
// (flashmark::Random, block starts drawn by Random::Below).
// Complexity: one sort, O(n log n); then per resample O(n / L + w), w the
// width (in ranks) of a band around the median, initially 6 sqrt(n) (+-6
// standard deviations of an iid median's rank): per block, a table gives
// its count of values below the band and its values inside it, which are
// tallied; the median's order statistics are read from the tally. A
// resample whose median falls outside the band is redone in full (O(n),
// nth_element), and the band doubles when that happens to more than 1 % of
// the resamples, so results are exact. Memory O(n). Values must not be NaN.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "analysis/cancel.h"

namespace flashmark {

struct BootstrapOptions {
  size_t block_length = 0;  // 0: max(1, round(n^(1/3)))
  size_t resamples = 1000;  // B
  double confidence = 0.95;
  uint64_t seed = 1;
  CancelToken cancel;  // polled between resamples (cancel.h)
};

struct ConfidenceInterval {
  double estimate = 0;  // the statistic on the original data
  double low = 0;
  double high = 0;
  double confidence = 0;
  size_t block_length = 0;  // as used (for the ratio: of the numerator)
  size_t resamples = 0;
};

// Empty input: all zero. B == 0: low == high == estimate.
ConfidenceInterval MedianConfidenceInterval(
    std::span<const double> values, const BootstrapOptions& options = {});

// CI of median(numerator) / median(denominator); each series gets its own
// automatic block length when options.block_length is 0. Empty input or a
// zero median of the denominator in the data: all zero.
ConfidenceInterval MedianRatioConfidenceInterval(
    std::span<const double> numerator, std::span<const double> denominator,
    const BootstrapOptions& options = {});

// The automatic block length rule above.
size_t DefaultBlockLength(size_t n);

}  // namespace flashmark
