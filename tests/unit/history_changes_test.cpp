#include "analysis/history_changes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "analysis/student_t.h"
#include "synthetic_series.h"

namespace flashmark {
namespace {

using synthetic::FlatSeries;
using synthetic::StepSeries;

TEST(StudentT, TailProbabilitiesMatchTheTables) {
  // Two-sided 5 % and 1 % points of Student's t (any statistics table).
  EXPECT_NEAR(TwoSidedTailOfT(12.706204736, 1), 0.05, 1e-9);
  EXPECT_NEAR(TwoSidedTailOfT(4.302652730, 2), 0.05, 1e-9);
  EXPECT_NEAR(TwoSidedTailOfT(2.228138852, 10), 0.05, 1e-9);
  EXPECT_NEAR(TwoSidedTailOfT(3.169272673, 10), 0.01, 1e-9);
  EXPECT_NEAR(TwoSidedTailOfT(-2.008559112, 50), 0.05, 1e-9);
  EXPECT_NEAR(TwoSidedTailOfT(0, 7), 1.0, 1e-12);
  EXPECT_NEAR(TwoSidedTailOfT(1.959963985, 1e7), 0.05, 1e-9);
  EXPECT_EQ(TwoSidedTailOfT(INFINITY, 3), 0.0);
}

TEST(HistoryChanges, FlatNoisyHistoriesRarelyShowAChange) {
  // The header's false-alarm rate: about 1 % of histories at most (the
  // Bonferroni bound; 0.9 % at 10 runs, 0.3 % at 100 over 5,000 seeds).
  for (size_t runs : {10, 20, 50, 100, 200, 400}) {
    int alarms = 0;
    const uint64_t seeds = runs <= 100 ? 2000 : 400;
    for (uint64_t seed = 1; seed <= seeds; ++seed) {
      const auto values = FlatSeries(runs, 500, 0.05, seed * 1000 + runs);
      const HistoryChanges found = FindHistoryChanges(values);
      ASSERT_EQ(found.segments.size(), found.changes.size() + 1);
      if (!found.changes.empty()) ++alarms;
    }
    EXPECT_LE(alarms, static_cast<int>(seeds) / 80)
        << runs << " runs: " << alarms << " of " << seeds;
  }
}

TEST(HistoryChanges, AnInjectedDropIsFoundAtTheRunWhereItStarts) {
  // 100 runs, -10 % from run 70, 2 % noise (a 5 sigma step). The noise
  // after it may show a second, spurious change now and then (seed 5: 4
  // runs 3.5 % lower at the end), within the false-alarm rate.
  int exact = 0, alone = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const auto values = StepSeries(100, 70, 500, 450, 0.02, seed);
    const HistoryChanges found = FindHistoryChanges(values);
    ASSERT_GE(found.changes.size(), 1u) << "seed " << seed;
    if (found.changes.size() == 1) ++alone;
    const HistoryChange& change = found.changes[0];
    EXPECT_LE(std::abs(static_cast<int>(change.index) - 70), 1)
        << "seed " << seed;
    if (change.index == 70) ++exact;
    EXPECT_NEAR(change.relative, -0.10, 0.02);
    EXPECT_NEAR(change.before, 500, 10);
    EXPECT_NEAR(change.after, 450, 10);
    EXPECT_LT(change.p_value, 1e-6);
    EXPECT_EQ(found.segments[0].begin, 0u);
    EXPECT_EQ(found.segments[0].end, change.index);
    EXPECT_EQ(found.segments.back().end, 100u);
  }
  EXPECT_GE(exact, 45);
  EXPECT_GE(alone, 48);
}

TEST(HistoryChanges, ASmallerDropIsStillFoundInMostHistories) {
  // -10 % in 5 % noise (2 sigma) two thirds into 60 runs.
  int found_one = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const auto values = StepSeries(60, 40, 100, 90, 0.05, seed + 77);
    const HistoryChanges found = FindHistoryChanges(values);
    if (found.changes.size() == 1 &&
        std::abs(static_cast<int>(found.changes[0].index) - 40) <= 3)
      ++found_one;
  }
  EXPECT_GE(found_one, 90);
}

TEST(HistoryChanges, AnUpdateAndItsRollbackAreTwoChanges) {
  // A firmware update lowers the figure for runs 30..59; a rollback
  // brings it back.
  std::vector<double> values = FlatSeries(90, 300, 0.02, 5);
  for (size_t i = 30; i < 60; ++i) values[i] *= 0.8;
  const HistoryChanges found = FindHistoryChanges(values);
  ASSERT_EQ(found.changes.size(), 2u);
  EXPECT_EQ(found.changes[0].index, 30u);
  EXPECT_EQ(found.changes[1].index, 60u);
  EXPECT_LT(found.changes[0].relative, -0.15);
  EXPECT_GT(found.changes[1].relative, 0.15);
}

TEST(HistoryChanges, ShortAndConstantHistories) {
  EXPECT_TRUE(FindHistoryChanges(std::vector<double>{}).segments.empty());
  // Shorter than two segments of min_runs: one segment, not searched.
  const std::vector<double> five = {1, 1, 1, 9, 9};
  const HistoryChanges short_one = FindHistoryChanges(five);
  ASSERT_EQ(short_one.segments.size(), 1u);
  EXPECT_TRUE(short_one.changes.empty());
  // Without noise a step is certain, and a constant is one level.
  const std::vector<double> step = {4, 4, 4, 4, 2, 2, 2, 2};
  const HistoryChanges stepped = FindHistoryChanges(step);
  ASSERT_EQ(stepped.changes.size(), 1u);
  EXPECT_EQ(stepped.changes[0].index, 4u);
  EXPECT_DOUBLE_EQ(stepped.changes[0].relative, -0.5);
  EXPECT_TRUE(FindHistoryChanges(std::vector<double>(20, 3.0)).changes.empty());
}

TEST(HistoryNewest, ADropInTheNewestRunAloneIsJudgedAgainstItsLevel) {
  std::vector<double> values = FlatSeries(40, 1000, 0.01, 9);
  values.push_back(850);
  const HistoryChanges found = FindHistoryChanges(values);
  EXPECT_TRUE(found.changes.empty());
  const NewestJudgement newest = JudgeNewest(values, found);
  ASSERT_TRUE(newest.judged);
  EXPECT_TRUE(newest.differs);
  EXPECT_FALSE(newest.from_change);
  EXPECT_EQ(newest.value, 850);
  EXPECT_NEAR(newest.baseline, 1000, 10);
  EXPECT_EQ(newest.baseline_begin, 0u);
  EXPECT_EQ(newest.baseline_end, 40u);
  EXPECT_NEAR(newest.relative, -0.15, 0.01);
  EXPECT_LT(newest.p_value, 1e-6);

  // The same run within the noise is in line.
  values.back() = 1005;
  const NewestJudgement in_line =
      JudgeNewest(values, FindHistoryChanges(values));
  ASSERT_TRUE(in_line.judged);
  EXPECT_FALSE(in_line.differs);
  EXPECT_GT(in_line.p_value, 0.05);
}

TEST(HistoryNewest, ANewLevelOfTheLastFewRunsIsTheVerdict) {
  // 30 runs at 1000, then 3 at 700: the change is the newest run's story.
  std::vector<double> values = FlatSeries(30, 1000, 0.01, 11);
  for (double v : {700.0, 702.0, 698.0}) values.push_back(v);
  const HistoryChanges found = FindHistoryChanges(values);
  ASSERT_EQ(found.changes.size(), 1u);
  const NewestJudgement newest = JudgeNewest(values, found);
  EXPECT_TRUE(newest.judged);
  EXPECT_TRUE(newest.differs);
  EXPECT_TRUE(newest.from_change);
  EXPECT_EQ(newest.change_index, 30u);
  EXPECT_NEAR(newest.relative, -0.30, 0.01);

  // Ten runs later the new level is the baseline, and in line.
  for (int i = 0; i < 10; ++i) values.push_back(700 + (i % 3) - 1);
  const HistoryChanges later = FindHistoryChanges(values);
  const NewestJudgement settled = JudgeNewest(values, later);
  EXPECT_TRUE(settled.judged);
  EXPECT_FALSE(settled.from_change);
  EXPECT_FALSE(settled.differs);
  EXPECT_EQ(settled.baseline_begin, 30u);
}

TEST(HistoryNewest, TooFewRunsAreNotJudged) {
  const std::vector<double> values = {10, 11, 5};
  const NewestJudgement newest =
      JudgeNewest(values, FindHistoryChanges(values));
  EXPECT_FALSE(newest.judged);
  EXPECT_FALSE(newest.differs);
}

}  // namespace
}  // namespace flashmark
