#include "runner/work_plan.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

JobSpec Spec(IoMode mode, int threads, uint32_t bs) {
  JobSpec spec;
  spec.mode = mode;
  spec.threads = threads;
  spec.block_sizes = {{bs, 100}};
  return spec;
}

TEST(PlanWorkers, RandomWorkersSpanEveryFileRoundedToBlocks) {
  const std::vector<IoFile> files = {{-1, 10000, "a"}, {-1, 8192, "b"}};
  auto plans = PlanWorkers(Spec(IoMode::kRndRd, 2, 4096), files, 1);
  ASSERT_TRUE(plans.ok());
  ASSERT_EQ(plans->size(), 2u);
  for (const auto& plan : *plans) {
    ASSERT_EQ(plan.segments.size(), 2u);
    EXPECT_EQ(plan.segments[0].file, 0u);
    EXPECT_EQ(plan.segments[0].end, 8192u);  // 10000 rounded down
    EXPECT_EQ(plan.segments[1].file, 1u);
    EXPECT_EQ(plan.segments[1].end, 8192u);
  }
  EXPECT_NE((*plans)[0].seed, (*plans)[1].seed);
}

TEST(PlanWorkers, SequentialWorkersGetDisjointContiguousSlices) {
  // Two files of 4 blocks each, 3 workers: slices of 2, 2 and 4 blocks.
  const std::vector<IoFile> files = {{-1, 4 * 4096, "a"}, {-1, 4 * 4096, "b"}};
  auto plans = PlanWorkers(Spec(IoMode::kSeqWr, 3, 4096), files, 7);
  ASSERT_TRUE(plans.ok());
  const auto& p = *plans;
  ASSERT_EQ(p[0].segments.size(), 1u);
  EXPECT_EQ(p[0].segments[0].file, 0u);
  EXPECT_EQ(p[0].segments[0].begin, 0u);
  EXPECT_EQ(p[0].segments[0].end, 2u * 4096);
  ASSERT_EQ(p[1].segments.size(), 1u);
  EXPECT_EQ(p[1].segments[0].begin, 2u * 4096);
  EXPECT_EQ(p[1].segments[0].end, 4u * 4096);
  ASSERT_EQ(p[2].segments.size(), 1u);  // the rest: all of file b
  EXPECT_EQ(p[2].segments[0].file, 1u);
  EXPECT_EQ(p[2].segments[0].begin, 0u);
  EXPECT_EQ(p[2].segments[0].end, 4u * 4096);
}

TEST(PlanWorkers, LimitsAndRateAreShared) {
  JobSpec spec = Spec(IoMode::kRndRd, 3, 4096);
  spec.io_limit = 10;
  spec.rate.iops = 300;
  const std::vector<IoFile> files = {{-1, 1 << 20, ""}};
  auto plans = PlanWorkers(spec, files, 1);
  ASSERT_TRUE(plans.ok());
  EXPECT_EQ((*plans)[0].io_limit, 4u);
  EXPECT_EQ((*plans)[1].io_limit, 3u);
  EXPECT_EQ((*plans)[2].io_limit, 3u);
  for (const auto& plan : *plans) EXPECT_DOUBLE_EQ(plan.iops_rate, 100);
}

TEST(PlanWorkers, RejectsFilesSmallerThanABlockAndTooSmallLimits) {
  const std::vector<IoFile> tiny = {{-1, 1000, "tiny"}};
  auto plans = PlanWorkers(Spec(IoMode::kRndRd, 1, 4096), tiny, 1);
  ASSERT_FALSE(plans.ok());
  EXPECT_NE(plans.error().message.find("tiny"), std::string::npos);
  EXPECT_EQ(plans.error().exit_code, kUsageExit);

  JobSpec spec = Spec(IoMode::kRndRd, 8, 4096);
  spec.io_limit = 3;
  const std::vector<IoFile> files = {{-1, 1 << 20, ""}};
  EXPECT_FALSE(PlanWorkers(spec, files, 1).ok());
}

}  // namespace
}  // namespace flashmark
