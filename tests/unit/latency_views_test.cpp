// The latency heatmap's bands and columns, and the percentile spectrum:
// counts kept exactly, bands a quarter octave apart, columns summed in
// order, percentiles clamped to the maximum and thin tails marked.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/latency_heatmap.h"
#include "analysis/latency_spectrum.h"

namespace flashmark {
namespace {

TEST(LatencyHeatmap, BandsAreAQuarterOctave) {
  EXPECT_EQ(LatencyHeatmap::RowOf(1024), 40);
  EXPECT_EQ(LatencyHeatmap::RowOf(1023), 39);
  EXPECT_EQ(LatencyHeatmap::RowOf(0), 0);
  EXPECT_DOUBLE_EQ(LatencyHeatmap::RowLowerNs(40), 1024);
  EXPECT_NEAR(LatencyHeatmap::RowUpperNs(40) / LatencyHeatmap::RowLowerNs(40),
              std::pow(2, 0.25), 1e-12);
  for (double ns : {1.5, 900.0, 1e5, 3.3e7}) {
    const int row = LatencyHeatmap::RowOf(ns);
    EXPECT_LE(LatencyHeatmap::RowLowerNs(row), ns);
    EXPECT_GT(LatencyHeatmap::RowUpperNs(row), ns);
  }
}

TEST(LatencyHeatmap, ColumnsSumNeighboursAndKeepEveryIo) {
  LatencyHeatmapBuilder builder;
  for (int k = 0; k < 10; ++k) {
    LatencyHistogram h;
    h.Add(100'000, 10);   // 100 us
    h.Add(5'000'000, k);  // 5 ms, more and more
    builder.Add(k, k + 1, h);
  }
  const LatencyHeatmap map = builder.Result(4);  // 10 in columns of 3
  ASSERT_EQ(map.counts.size(), 4u);
  EXPECT_EQ(map.column_start, (std::vector<double>{0, 3, 6, 9}));
  EXPECT_EQ(map.column_end, (std::vector<double>{3, 6, 9, 10}));
  EXPECT_EQ(map.first_row, LatencyHeatmap::RowOf(100'000));
  EXPECT_EQ(map.row_count,
            LatencyHeatmap::RowOf(5'000'000) - map.first_row + 1);
  EXPECT_EQ(map.total(), 10u * 10 + 45);
  EXPECT_EQ(map.counts[0].front(), 30u);
  EXPECT_EQ(map.counts[0].back(), 0u + 1 + 2);
  EXPECT_EQ(map.counts[3].back(), 9u);
  EXPECT_TRUE(LatencyHeatmapBuilder().Result(10).counts.empty());
}

TEST(LatencySpectrum, FromTheMedianToTheSlowestIo) {
  LatencyHistogram h;
  h.Add(1000, 99'000);
  h.Add(50'000, 990);
  h.Add(9'000'000, 10);  // the slowest 10 of 100k
  const auto points = PercentileSpectrum(h, 5);
  ASSERT_FALSE(points.empty());
  EXPECT_DOUBLE_EQ(points.front().percentile, 50);
  EXPECT_NEAR(points.front().ns, 1000, 1);
  for (size_t k = 1; k < points.size(); ++k) {
    EXPECT_GT(points[k].percentile, points[k - 1].percentile);
    EXPECT_GE(points[k].ns, points[k - 1].ns);
    EXPECT_LE(points[k].ns, h.Max());  // clamped to the maximum
    EXPECT_EQ(points[k].few, points[k].beyond < kFewBeyond);
  }
  EXPECT_NEAR(points.back().percentile, 100 * (1 - 1e-5), 1e-9);
  EXPECT_DOUBLE_EQ(points.back().ns, h.Max());
  EXPECT_TRUE(points.back().few);
  // Past 99 %, 1000 IOs back each figure up to 99.9 %: not few.
  bool saw_p99 = false;
  for (const SpectrumPoint& p : points) {
    if (p.percentile > 99.01 && p.percentile < 99.9) {
      saw_p99 = true;
      EXPECT_FALSE(p.few);
      EXPECT_NEAR(p.ns, 50'000, 50);
    }
  }
  EXPECT_TRUE(saw_p99);
  EXPECT_TRUE(PercentileSpectrum(LatencyHistogram()).empty());
}

}  // namespace
}  // namespace flashmark
