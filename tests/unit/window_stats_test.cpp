#include "analysis/window_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "analysis/box_plot.h"
#include "synthetic_series.h"

namespace flashmark {
namespace {

TEST(WindowStats, HandComputed) {
  // 2 4 4 4 5 5 7 9 (given unsorted). Mean 40 / 8 = 5.
  // Squares about the mean: 9 1 1 1 0 0 4 16 = 32; sample variance 32 / 7,
  // sd 2.13809; CV 0.427618.
  // Type 7, h = 7 q: p25 h = 1.75 -> 4; median h = 3.5 -> 4.5;
  // p75 h = 5.25 -> 5 + 0.25 * 2 = 5.5; p5 h = 0.35 -> 2 + 0.35 * 2 = 2.7;
  // p95 h = 6.65 -> 7 + 0.65 * 2 = 8.3. Band 5.6 = 124.4 % of 4.5.
  const std::vector<double> values = {5, 2, 9, 4, 4, 7, 4, 5};
  const WindowStats s = ComputeWindowStats(values);
  EXPECT_EQ(s.count, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7), 1e-12);
  EXPECT_NEAR(s.cv, std::sqrt(32.0 / 7) / 5, 1e-12);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.p25, 4);
  EXPECT_DOUBLE_EQ(s.p75, 5.5);
  EXPECT_DOUBLE_EQ(s.iqr, 1.5);
  EXPECT_NEAR(s.p5, 2.7, 1e-12);
  EXPECT_NEAR(s.p95, 8.3, 1e-12);
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 9);
  EXPECT_NEAR(s.band_width, 5.6, 1e-12);
  EXPECT_NEAR(s.band_width_percent, 100 * 5.6 / 4.5, 1e-9);
  EXPECT_DOUBLE_EQ(s.median_ci.estimate, 4.5);
  EXPECT_LE(s.median_ci.low, 4.5);
  EXPECT_GE(s.median_ci.high, 4.5);
  EXPECT_EQ(s.median_ci.block_length, 2u);  // round(8^(1/3))
}

TEST(WindowStats, EdgeCases) {
  EXPECT_EQ(ComputeWindowStats({}).count, 0u);
  const std::vector<double> one = {3};
  const WindowStats s = ComputeWindowStats(one);
  EXPECT_EQ(s.count, 1u);
  EXPECT_EQ(s.stddev, 0);
  EXPECT_EQ(s.cv, 0);
  EXPECT_EQ(s.median_ci.low, 3);
  const std::vector<double> zeros(10, 0.0);
  const WindowStats z = ComputeWindowStats(zeros);
  EXPECT_EQ(z.cv, 0);
  EXPECT_EQ(z.band_width_percent, 0);
}

TEST(WindowStats, NoisySeriesAgainstItsDistribution) {
  // N(300, 30^2): median 300, IQR 2 * 0.6745 * 30 = 40.5, p5..p95 band
  // 2 * 1.6449 * 30 = 98.7, CV 0.1.
  const std::vector<double> v = synthetic::FlatSeries(20000, 300, 0.1, 8);
  const WindowStats s = ComputeWindowStats(v);
  EXPECT_NEAR(s.median, 300, 1.5);
  EXPECT_NEAR(s.iqr, 40.5, 2);
  EXPECT_NEAR(s.band_width, 98.7, 3);
  EXPECT_NEAR(s.cv, 0.1, 0.005);
  EXPECT_LT(s.median_ci.low, 300);
  EXPECT_GT(s.median_ci.high, 300);
  EXPECT_LT(s.median_ci.high - s.median_ci.low, 3);
}

TEST(WindowStatsBoxPlot, HandComputed) {
  // Sorted: -10 1 2 3 4 5 6 7 8 9 30 (n = 11, h = 10 q).
  // Q1: h = 2.5 -> 2.5; median: h = 5 -> 5; Q3: h = 7.5 -> 7.5; IQR 5.
  // Fences 2.5 - 7.5 = -5 and 7.5 + 7.5 = 15: whiskers at 1 and 9,
  // outliers -10 and 30.
  const std::vector<double> values = {30, 4, 1, 9, -10, 2, 8, 3, 7, 5, 6};
  const BoxPlot box = TukeyBoxPlot(values);
  EXPECT_EQ(box.count, 11u);
  EXPECT_DOUBLE_EQ(box.q1, 2.5);
  EXPECT_DOUBLE_EQ(box.median, 5);
  EXPECT_DOUBLE_EQ(box.q3, 7.5);
  EXPECT_DOUBLE_EQ(box.iqr, 5);
  EXPECT_DOUBLE_EQ(box.lower_fence, -5);
  EXPECT_DOUBLE_EQ(box.upper_fence, 15);
  EXPECT_DOUBLE_EQ(box.lower_whisker, 1);
  EXPECT_DOUBLE_EQ(box.upper_whisker, 9);
  EXPECT_EQ(box.outliers, (std::vector<double>{-10, 30}));
}

TEST(WindowStatsBoxPlot, PointsOnAFenceAreInside) {
  // 0 2 4 6 8 16: Q1 h = 1.25 -> 2.5, Q3 h = 3.75 -> 7.5, IQR 5, upper
  // fence 15: 16 is an outlier. 0 2 4 6 8 15 has Q3 = 6 + 0.75 * 2 = 7.5
  // too, so 15 sits on the fence: a whisker, not an outlier.
  const BoxPlot out = TukeyBoxPlot(std::vector<double>{0, 2, 4, 6, 8, 16});
  EXPECT_DOUBLE_EQ(out.upper_fence, 15);
  EXPECT_DOUBLE_EQ(out.upper_whisker, 8);
  EXPECT_EQ(out.outliers, (std::vector<double>{16}));
  const BoxPlot on = TukeyBoxPlot(std::vector<double>{0, 2, 4, 6, 8, 15});
  EXPECT_DOUBLE_EQ(on.upper_whisker, 15);
  EXPECT_TRUE(on.outliers.empty());
  EXPECT_DOUBLE_EQ(on.lower_whisker, 0);
}

TEST(WindowStatsBoxPlot, EdgeCases) {
  EXPECT_EQ(TukeyBoxPlot({}).count, 0u);
  const BoxPlot one = TukeyBoxPlot(std::vector<double>{4});
  EXPECT_DOUBLE_EQ(one.median, 4);
  EXPECT_DOUBLE_EQ(one.lower_whisker, 4);
  EXPECT_DOUBLE_EQ(one.upper_whisker, 4);
  EXPECT_TRUE(one.outliers.empty());
  // All equal but one: IQR 0, the odd one out is an outlier.
  const BoxPlot flat = TukeyBoxPlot(std::vector<double>{5, 5, 5, 5, 5, 9});
  EXPECT_DOUBLE_EQ(flat.iqr, 0);
  EXPECT_DOUBLE_EQ(flat.upper_whisker, 5);
  EXPECT_EQ(flat.outliers, (std::vector<double>{9}));
}

}  // namespace
}  // namespace flashmark
