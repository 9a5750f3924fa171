// The streaming fidelity of a replay (analysis/replay_fidelity_accumulator.h)
// against exact figures of known data: quantiles within the histogram's
// precision, every other figure exact, and the per-interval series.
#include "analysis/replay_fidelity_accumulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "model/histogram_buckets.h"

namespace flashmark {
namespace {

// Nearest rank, as the histogram's quantiles.
double ExactNearestRank(std::vector<int64_t> values, double q) {
  std::sort(values.begin(), values.end());
  const auto rank =
      static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  return static_cast<double>(values[std::max<size_t>(rank, 1) - 1]);
}

void ExpectWithinPrecision(double got, double exact) {
  EXPECT_NEAR(got, exact, exact * buckets::kMaxRelativeError + 0.5)
      << "exact " << exact;
}

TEST(ReplayFidelityAccumulator, QuantilesWithinTheHistogramsPrecision) {
  // 200k IOs 50 us apart, errors spread log-uniformly from 1 us to 20 ms.
  std::mt19937_64 random(40);
  std::uniform_real_distribution<double> exponent(3, std::log10(2e7));
  ReplayFidelityAccumulator accumulator(50'000, 0);
  std::vector<int64_t> errors, gaps;
  int64_t issued_before = 0;
  int64_t max = 0, sum = 0;
  for (int i = 0; i < 200'000; ++i) {
    const int64_t intended = int64_t{i} * 50'000;
    const auto error = static_cast<int64_t>(std::pow(10, exponent(random)));
    const int64_t issued = intended + error;
    accumulator.Add({.intended_ns = intended,
                     .issued_ns = issued,
                     .achieved_depth = 1,
                     .recorded_depth = 0});
    errors.push_back(error);
    if (i > 0) gaps.push_back(std::max<int64_t>(0, issued - issued_before));
    issued_before = issued;
    max = std::max(max, error);
    sum += error;
  }
  const ReplayFidelity f = accumulator.Result();
  EXPECT_EQ(f.ios, 200'000u);
  EXPECT_TRUE(f.timed);
  ExpectWithinPrecision(f.error_p50_ns, ExactNearestRank(errors, 0.5));
  ExpectWithinPrecision(f.error_p99_ns, ExactNearestRank(errors, 0.99));
  ExpectWithinPrecision(f.interarrival_p50_ns, ExactNearestRank(gaps, 0.5));
  ExpectWithinPrecision(f.interarrival_p99_ns, ExactNearestRank(gaps, 0.99));
  EXPECT_DOUBLE_EQ(f.error_max_ns, static_cast<double>(max));
  EXPECT_DOUBLE_EQ(f.error_mean_ns, static_cast<double>(sum) / 200'000);
  EXPECT_EQ(f.early, 0u);
  // Issued out of order, IOs were: the later ones' larger errors overtook.
  EXPECT_GT(f.reordered, 0u);
  // p99 of errors up to 20 ms is far above 100 us.
  EXPECT_DOUBLE_EQ(f.late_threshold_ns, 100'000);
  EXPECT_FALSE(f.kept_timing);
  EXPECT_TRUE(f.series.empty());
}

TEST(ReplayFidelityAccumulator, EarlyIosCountAsZeroInTheQuantilesOnly) {
  ReplayFidelityAccumulator accumulator(1e6, 0);
  // Errors -300, -100, 200, 400 ns.
  const int64_t errors[] = {-300, -100, 200, 400};
  for (int i = 0; i < 4; ++i) {
    accumulator.Add({.intended_ns = 10'000 * (i + 1),
                     .issued_ns = 10'000 * (i + 1) + errors[i],
                     .achieved_depth = 2,
                     .recorded_depth = 3});
  }
  const ReplayFidelity f = accumulator.Result();
  EXPECT_EQ(f.early, 2u);
  EXPECT_DOUBLE_EQ(f.error_p50_ns, 0);  // rank 2 of {0, 0, 200, 400}
  EXPECT_DOUBLE_EQ(f.error_p99_ns, 400);
  EXPECT_DOUBLE_EQ(f.error_max_ns, 400);
  EXPECT_DOUBLE_EQ(f.error_mean_ns, 50);  // (-300 - 100 + 200 + 400) / 4
  EXPECT_DOUBLE_EQ(f.achieved_depth_mean, 2);
  ASSERT_TRUE(f.recorded_depth_mean.has_value());
  EXPECT_DOUBLE_EQ(*f.recorded_depth_mean, 3);
  EXPECT_EQ(f.recorded_depth_max, 3u);
  EXPECT_TRUE(f.kept_timing);
}

TEST(ReplayFidelityAccumulator, MaxKeepsItsSignWhenEveryIoIsEarly) {
  ReplayFidelityAccumulator accumulator(1e6, 0);
  accumulator.Add({.intended_ns = 1000, .issued_ns = 900, .achieved_depth = 1});
  accumulator.Add(
      {.intended_ns = 2000, .issued_ns = 1950, .achieved_depth = 1});
  const ReplayFidelity f = accumulator.Result();
  EXPECT_EQ(f.early, 2u);
  EXPECT_DOUBLE_EQ(f.error_max_ns, -50);
  EXPECT_DOUBLE_EQ(f.error_p99_ns, 0);
}

TEST(ReplayFidelityAccumulator, SeriesPerIntervalOfSubmissionTime) {
  // Intervals of 1 ms. Interval 0: errors 10..100 ns (10 IOs), depth 1;
  // interval 1: none; interval 2: errors 1000 and 3000 ns, depths 2 and 4;
  // interval 3: one afap-like IO without an intended time.
  ReplayFidelityAccumulator accumulator(100'000, 1'000'000);
  for (int i = 1; i <= 10; ++i) {
    accumulator.Add({.intended_ns = i * 1000,
                     .issued_ns = i * 1000 + i * 10,
                     .achieved_depth = 1});
  }
  accumulator.Add(
      {.intended_ns = 2'100'000, .issued_ns = 2'101'000, .achieved_depth = 2});
  accumulator.Add(
      {.intended_ns = 2'200'000, .issued_ns = 2'203'000, .achieved_depth = 4});
  accumulator.Add(
      {.intended_ns = -1, .issued_ns = 3'500'000, .achieved_depth = 3});
  const ReplayFidelity f = accumulator.Result();
  EXPECT_EQ(f.series_interval_ns, 1'000'000u);
  ASSERT_EQ(f.series.size(), 4u);
  EXPECT_EQ(f.series[0].ios, 10u);
  EXPECT_DOUBLE_EQ(f.series[0].error_p50_ns, 50);  // rank 5 of 10..100
  EXPECT_DOUBLE_EQ(f.series[0].error_p99_ns, 100);
  EXPECT_DOUBLE_EQ(f.series[0].error_max_ns, 100);
  EXPECT_DOUBLE_EQ(f.series[0].achieved_depth_mean, 1);
  EXPECT_EQ(f.series[1].ios, 0u);
  EXPECT_DOUBLE_EQ(f.series[1].error_p99_ns, 0);
  EXPECT_DOUBLE_EQ(f.series[1].achieved_depth_mean, 0);
  EXPECT_EQ(f.series[2].ios, 2u);
  EXPECT_DOUBLE_EQ(f.series[2].error_p50_ns, 1000);
  ExpectWithinPrecision(f.series[2].error_p99_ns, 3000);
  EXPECT_DOUBLE_EQ(f.series[2].error_max_ns, 3000);
  EXPECT_DOUBLE_EQ(f.series[2].achieved_depth_mean, 3);
  EXPECT_EQ(f.series[3].ios, 1u);
  EXPECT_DOUBLE_EQ(f.series[3].error_max_ns, 0);  // no intended time
  EXPECT_DOUBLE_EQ(f.series[3].achieved_depth_mean, 3);
  // The whole replay's figures are the series' merged.
  EXPECT_EQ(f.ios, 13u);
  EXPECT_DOUBLE_EQ(f.error_max_ns, 3000);
  EXPECT_DOUBLE_EQ(f.error_p50_ns, 60);  // rank 6 of 12: 10..100, 1000, 3000
  EXPECT_EQ(f.achieved_depth_max, 4u);
  EXPECT_FALSE(f.recorded_depth_mean.has_value());
}

TEST(ReplayFidelityAccumulator,
     AnIoSubmittedBeforeItsIntervalCountsInTheCurrent) {
  ReplayFidelityAccumulator accumulator(1e6, 1000);
  accumulator.Add(
      {.intended_ns = 2500, .issued_ns = 2500, .achieved_depth = 1});
  accumulator.Add({.intended_ns = 500, .issued_ns = 600, .achieved_depth = 1});
  const ReplayFidelity f = accumulator.Result();
  ASSERT_EQ(f.series.size(), 3u);
  EXPECT_EQ(f.series[2].ios, 2u);
  EXPECT_EQ(f.reordered, 1u);
  EXPECT_DOUBLE_EQ(f.interarrival_p50_ns, 0);  // 600 - 2500 counts as 0
}

TEST(ReplayFidelityAccumulator, NothingAddedIsNothingKept) {
  const ReplayFidelity f = ReplayFidelityAccumulator(0, 1000).Result();
  EXPECT_EQ(f.ios, 0u);
  EXPECT_FALSE(f.timed);
  EXPECT_TRUE(f.kept_timing);
  EXPECT_TRUE(f.series.empty());
  EXPECT_DOUBLE_EQ(f.late_threshold_ns, 1e6);
}

}  // namespace
}  // namespace flashmark
