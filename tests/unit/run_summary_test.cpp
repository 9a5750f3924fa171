#include "analysis/run_summary.h"

#include <gtest/gtest.h>

#include "analysis/quantiles.h"

namespace flashmark {
namespace {

TEST(Quantiles, Type7AgainstHandComputedValues) {
  // R: quantile(c(1,2,3,4,10), c(.25,.5,.75,.05,.95)) = 2 3 4 1.2 8.8
  const std::vector<double> sorted = {1, 2, 3, 4, 10};
  EXPECT_DOUBLE_EQ(QuantileOfSorted(sorted, 0.25), 2);
  EXPECT_DOUBLE_EQ(QuantileOfSorted(sorted, 0.5), 3);
  EXPECT_DOUBLE_EQ(QuantileOfSorted(sorted, 0.75), 4);
  EXPECT_NEAR(QuantileOfSorted(sorted, 0.05), 1.2, 1e-12);
  EXPECT_NEAR(QuantileOfSorted(sorted, 0.95), 8.8, 1e-12);
  EXPECT_DOUBLE_EQ(QuantileOfSorted(sorted, 0), 1);
  EXPECT_DOUBLE_EQ(QuantileOfSorted(sorted, 1), 10);
  // Even count: median between the middle two.
  const std::vector<double> even = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(QuantileOfSorted(even, 0.5), 2.5);
}

TEST(Quantiles, SummarizeSeriesInAnyOrder) {
  const SeriesSummary s = SummarizeSeries({10, 1, 4, 3, 2});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.p25, 2);
  EXPECT_DOUBLE_EQ(s.p75, 4);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_DOUBLE_EQ(s.mean, 4);
  EXPECT_EQ(SummarizeSeries({}).count, 0u);
}

IntervalSample SummaryInterval(uint32_t index, uint64_t read_bytes,
                               bool partial) {
  IntervalSample sample;
  sample.index = index;
  sample.start_ns = index * 1'000'000'000ull;
  sample.end_ns = sample.start_ns + (partial ? 100'000'000 : 1'000'000'000);
  sample.partial = partial;
  sample.read.ios = read_bytes / 4096;
  sample.read.bytes = read_bytes;
  sample.read_latency.Add(1000, sample.read.ios);
  return sample;
}

TEST(SummarizeRun, SeriesFromFullIntervalsTotalsFromAll) {
  const std::vector<IntervalSample> intervals = {
      SummaryInterval(0, 100 << 20, false),
      SummaryInterval(1, 300 << 20, false),
      SummaryInterval(2, 200 << 20, false), SummaryInterval(3, 1 << 20, true)};
  const RunSummary s = SummarizeRun(intervals, 3.1);
  EXPECT_EQ(s.intervals_used, 3u);
  EXPECT_DOUBLE_EQ(s.read_mibs.median, 200);
  EXPECT_DOUBLE_EQ(s.read_mibs.min, 100);
  EXPECT_DOUBLE_EQ(s.read_mibs.max, 300);
  EXPECT_EQ(s.read.bytes, (601ull << 20));
  EXPECT_EQ(s.latency.count, (601ull << 20) / 4096);
  EXPECT_DOUBLE_EQ(s.latency.p50, 1000);
  EXPECT_EQ(s.write.ios, 0u);
}

TEST(SummarizeRun, OnlyPartialIntervalsStillGiveFigures) {
  const std::vector<IntervalSample> intervals = {
      SummaryInterval(0, 1 << 20, true)};
  const RunSummary s = SummarizeRun(intervals, 0.1);
  EXPECT_EQ(s.intervals_used, 1u);
  EXPECT_DOUBLE_EQ(s.read_mibs.median, 10);  // 1 MiB in 0.1 s
}

}  // namespace
}  // namespace flashmark
