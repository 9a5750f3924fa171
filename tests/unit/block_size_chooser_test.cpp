#include "workload/block_size_chooser.h"

#include <gtest/gtest.h>

#include <map>

namespace flashmark {
namespace {

std::map<uint32_t, double> Shares(const std::vector<BlockSizeWeight>& mix,
                                  int draws, uint64_t seed = 1) {
  BlockSizeChooser chooser(mix, seed);
  std::map<uint32_t, double> shares;
  for (int i = 0; i < draws; ++i) shares[chooser.Next()] += 1.0 / draws;
  return shares;
}

TEST(BlockSizeChooserTest, SingleSizeIsAlwaysReturned) {
  BlockSizeChooser chooser({{16384, 100}}, 3);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(chooser.Next(), 16384u);
}

TEST(BlockSizeChooserTest, SixtyFortyMixIsObservedWithinOnePercent) {
  const auto shares = Shares({{4096, 60}, {65536, 40}}, 1'000'000);
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_NEAR(shares.at(4096), 0.60, 0.01);
  EXPECT_NEAR(shares.at(65536), 0.40, 0.01);
}

TEST(BlockSizeChooserTest, ThreeWayMixAndZeroWeightNeverDrawn) {
  const auto shares =
      Shares({{512, 10}, {8192, 0}, {4096, 30}, {131072, 60}}, 1'000'000);
  EXPECT_EQ(shares.count(8192), 0u);
  EXPECT_NEAR(shares.at(512), 0.10, 0.01);
  EXPECT_NEAR(shares.at(4096), 0.30, 0.01);
  EXPECT_NEAR(shares.at(131072), 0.60, 0.01);
}

TEST(BlockSizeChooserTest, WeightsNotSummingToHundredKeepProportions) {
  const auto shares = Shares({{4096, 1}, {8192, 3}}, 1'000'000);
  EXPECT_NEAR(shares.at(4096), 0.25, 0.01);
  EXPECT_NEAR(shares.at(8192), 0.75, 0.01);
}

TEST(BlockSizeChooserTest, SameSeedSameSequence) {
  const std::vector<BlockSizeWeight> mix = {{4096, 50}, {65536, 50}};
  BlockSizeChooser a(mix, 9), b(mix, 9), c(mix, 10);
  int differences = 0;
  for (int i = 0; i < 1000; ++i) {
    const uint32_t x = a.Next();
    ASSERT_EQ(x, b.Next());
    differences += x != c.Next();
  }
  EXPECT_GT(differences, 300);
}

}  // namespace
}  // namespace flashmark
