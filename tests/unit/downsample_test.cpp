#include "report/downsample.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/random.h"

namespace flashmark {
namespace {

TEST(MinMaxDownsample, ShortSeriesAreKeptWhole) {
  const std::vector<double> values = {3, 1, 2};
  EXPECT_EQ(MinMaxDownsample(values, 2), (std::vector<size_t>{0, 1, 2}));
}

TEST(MinMaxDownsample, KeepsEveryBucketsExtremesInTimeOrder) {
  // Two buckets of four: [5 9 1 5] keeps 9 (index 1) and 1 (index 2);
  // [5 5 0 5] keeps index 4 (first max) and 6 (the min).
  const std::vector<double> values = {5, 9, 1, 5, 5, 5, 0, 5};
  EXPECT_EQ(MinMaxDownsample(values, 2), (std::vector<size_t>{1, 2, 4, 6}));
}

TEST(MinMaxDownsample, GlobalMinimumAndMaximumAlwaysSurvive) {
  Random random(9);
  std::vector<double> values(7200);
  for (auto& v : values) v = 300 + random.Unit() * 10;
  values[1234] = 5;    // a one-second stall
  values[6000] = 900;  // a burst
  const auto kept = MinMaxDownsample(values, 500);
  EXPECT_LE(kept.size(), 1000u);
  EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
  EXPECT_NE(std::find(kept.begin(), kept.end(), 1234u), kept.end());
  EXPECT_NE(std::find(kept.begin(), kept.end(), 6000u), kept.end());
}

}  // namespace
}  // namespace flashmark
