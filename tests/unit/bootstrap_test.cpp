#include "analysis/bootstrap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/quantiles.h"
#include "common/random.h"
#include "synthetic_series.h"

namespace flashmark {
namespace {

using synthetic::Ar1Series;
using synthetic::FlatSeries;
using synthetic::Gaussian;

// The textbook circular block bootstrap, drawing block starts in the same
// order as the implementation (one Random::Below(n) per block, blocks in
// order, resamples in order): the fast band method must give the very same
// numbers.
double NaiveResampleMedian(const std::vector<double>& values, size_t block,
                           Random& random) {
  const size_t n = values.size();
  std::vector<double> resample;
  for (size_t remaining = n; remaining > 0;) {
    const size_t start = random.Below(n);
    const size_t len = std::min(block, remaining);
    for (size_t p = start; p < start + len; ++p) {
      resample.push_back(values[p % n]);
    }
    remaining -= len;
  }
  std::sort(resample.begin(), resample.end());
  return QuantileOfSorted(resample, 0.5);
}

std::pair<double, double> PercentileOf(std::vector<double> stats) {
  std::sort(stats.begin(), stats.end());
  return {QuantileOfSorted(stats, 0.025), QuantileOfSorted(stats, 0.975)};
}

std::vector<double> TiedValues(size_t n, uint64_t seed) {
  Random random(seed);
  std::vector<double> values(n);
  for (double& v : values) v = std::round(100 + 3 * Gaussian(random));
  return values;
}

TEST(Bootstrap, DefaultBlockLengthIsTheRoundedCubeRoot) {
  EXPECT_EQ(DefaultBlockLength(0), 1u);
  EXPECT_EQ(DefaultBlockLength(1), 1u);
  EXPECT_EQ(DefaultBlockLength(1000), 10u);
  EXPECT_EQ(DefaultBlockLength(5000), 17u);   // 17.10
  EXPECT_EQ(DefaultBlockLength(86400), 44u);  // 44.2
}

TEST(Bootstrap, MatchesTheTextbookResampling) {
  for (size_t n : {1, 2, 7, 10, 101, 1000, 4096}) {
    for (size_t block : {size_t{1}, size_t{3}, DefaultBlockLength(n)}) {
      const std::vector<double> values = TiedValues(n, n + block);
      BootstrapOptions options;
      options.block_length = block;
      options.resamples = 200;
      options.seed = 42 + n;
      const ConfidenceInterval ci = MedianConfidenceInterval(values, options);

      Random random(options.seed);
      std::vector<double> stats;
      for (size_t b = 0; b < options.resamples; ++b) {
        stats.push_back(
            NaiveResampleMedian(values, std::min(block, n), random));
      }
      const auto [low, high] = PercentileOf(stats);
      std::vector<double> sorted = values;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_DOUBLE_EQ(ci.estimate, QuantileOfSorted(sorted, 0.5));
      EXPECT_DOUBLE_EQ(ci.low, low) << "n " << n << " block " << block;
      EXPECT_DOUBLE_EQ(ci.high, high) << "n " << n << " block " << block;
      EXPECT_EQ(ci.block_length, std::min(block, n));
      EXPECT_EQ(ci.resamples, 200u);
      EXPECT_DOUBLE_EQ(ci.confidence, 0.95);
    }
  }
}

TEST(Bootstrap, AutocorrelatedSeriesMatchTheTextbookToo) {
  // Medians of resamples of a random walk wander far from the series'
  // median: the band misses and widens, and must stay exact.
  Random random(5);
  std::vector<double> walk(3000);
  double x = 0;
  for (double& v : walk) v = x += Gaussian(random);
  BootstrapOptions options;
  options.resamples = 300;
  const ConfidenceInterval ci = MedianConfidenceInterval(walk, options);
  Random replay(options.seed);
  std::vector<double> stats;
  for (size_t b = 0; b < options.resamples; ++b) {
    stats.push_back(
        NaiveResampleMedian(walk, DefaultBlockLength(3000), replay));
  }
  const auto [low, high] = PercentileOf(stats);
  EXPECT_DOUBLE_EQ(ci.low, low);
  EXPECT_DOUBLE_EQ(ci.high, high);
}

TEST(Bootstrap, DeterministicForASeed) {
  const std::vector<double> values = FlatSeries(2000, 300, 0.1, 9);
  BootstrapOptions options;
  options.seed = 77;
  const ConfidenceInterval a = MedianConfidenceInterval(values, options);
  const ConfidenceInterval b = MedianConfidenceInterval(values, options);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  options.seed = 78;
  const ConfidenceInterval c = MedianConfidenceInterval(values, options);
  EXPECT_TRUE(c.low != a.low || c.high != a.high);
  EXPECT_LE(a.low, a.estimate);
  EXPECT_GE(a.high, a.estimate);
}

TEST(Bootstrap, EdgeCases) {
  const ConfidenceInterval empty = MedianConfidenceInterval({});
  EXPECT_EQ(empty.estimate, 0);
  EXPECT_EQ(empty.resamples, 0u);
  const std::vector<double> one = {42};
  const ConfidenceInterval single = MedianConfidenceInterval(one);
  EXPECT_EQ(single.estimate, 42);
  EXPECT_EQ(single.low, 42);
  EXPECT_EQ(single.high, 42);
  BootstrapOptions none;
  none.resamples = 0;
  const std::vector<double> three = {1, 5, 3};
  const ConfidenceInterval no_resample = MedianConfidenceInterval(three, none);
  EXPECT_EQ(no_resample.low, 3);
  EXPECT_EQ(no_resample.high, 3);
}

TEST(Bootstrap, CoversTheTrueMedianOfIidNoise) {
  // N(300, 30^2): true median 300. 200 independent series of 500 values;
  // a 95 % interval should cover about 190 times (binomial sd ~3).
  int covered = 0;
  for (uint64_t trial = 1; trial <= 200; ++trial) {
    const std::vector<double> values = FlatSeries(500, 300, 0.1, trial);
    BootstrapOptions options;
    options.seed = 1000 + trial;
    const ConfidenceInterval ci = MedianConfidenceInterval(values, options);
    if (ci.low <= 300 && 300 <= ci.high) ++covered;
  }
  EXPECT_GE(covered, 176);  // 88 %
  EXPECT_LE(covered, 198);  // 99 %
}

TEST(Bootstrap, BlocksWidenTheIntervalOfAutocorrelatedSeries) {
  // AR(1), phi = 0.9: the variance of a mean (or median) is about (1 + phi)
  // / (1 - phi) = 19 times the iid one, so the honest interval is ~4x
  // wider than the iid bootstrap's (block length 1).
  const std::vector<double> values = Ar1Series(5000, 300, 0.9, 10, 21);
  BootstrapOptions iid;
  iid.block_length = 1;
  const ConfidenceInterval narrow = MedianConfidenceInterval(values, iid);
  const ConfidenceInterval blocks = MedianConfidenceInterval(values);
  EXPECT_EQ(blocks.block_length, 17u);
  const double ratio = (blocks.high - blocks.low) / (narrow.high - narrow.low);
  EXPECT_GT(ratio, 2.0);
  EXPECT_LT(ratio, 6.0);
}

TEST(Bootstrap, RatioOfMedians) {
  const std::vector<double> a = FlatSeries(3000, 300, 0.1, 1);
  const std::vector<double> b = FlatSeries(2000, 200, 0.1, 2);
  const ConfidenceInterval ci = MedianRatioConfidenceInterval(a, b);
  std::vector<double> sa = a, sb = b;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  EXPECT_DOUBLE_EQ(ci.estimate,
                   QuantileOfSorted(sa, 0.5) / QuantileOfSorted(sb, 0.5));
  EXPECT_LT(ci.low, ci.estimate);
  EXPECT_GT(ci.high, ci.estimate);
  EXPECT_LT(ci.low, 1.5);
  EXPECT_GT(ci.high, 1.5);
  EXPECT_LT(ci.high - ci.low, 0.05);  // medians known to ~0.5 % each

  // The same resampling as the textbook: A's blocks, then B's, per draw.
  BootstrapOptions options;
  options.resamples = 100;
  const ConfidenceInterval fast = MedianRatioConfidenceInterval(a, b, options);
  Random random(options.seed);
  std::vector<double> stats;
  for (size_t i = 0; i < options.resamples; ++i) {
    const double top = NaiveResampleMedian(a, DefaultBlockLength(3000), random);
    const double bottom =
        NaiveResampleMedian(b, DefaultBlockLength(2000), random);
    stats.push_back(top / bottom);
  }
  const auto [low, high] = PercentileOf(stats);
  EXPECT_DOUBLE_EQ(fast.low, low);
  EXPECT_DOUBLE_EQ(fast.high, high);

  EXPECT_EQ(MedianRatioConfidenceInterval(a, {}).estimate, 0);
}

}  // namespace
}  // namespace flashmark
