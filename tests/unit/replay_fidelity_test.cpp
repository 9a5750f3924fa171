// The fidelity figures of a replay (analysis/replay_fidelity.h) on
// constructed traces and records: exact, but for quantiles of values from
// 1024 ns up, which are a histogram bucket's midpoint (within 0.1 %).
#include "analysis/replay_fidelity.h"

#include <gtest/gtest.h>

#include "model/histogram_buckets.h"

namespace flashmark {
namespace {

TracedIo IoAt(int64_t issue_ns, int64_t complete_ns) {
  TracedIo io;
  io.issue_ns = issue_ns;
  io.complete_ns = complete_ns;
  io.length = 4096;
  io.op = TraceOp::kWrite;
  return io;
}

TEST(ReplayFidelity, RecordedDepthCountsTheTracesIosInFlightAtEachIssue) {
  BlockIoTrace trace;
  // 0: [0,100)  1: [10,50)  2: [20,30)  3: [50,60)  4: [100,110)
  trace.ios = {IoAt(0, 100), IoAt(10, 50), IoAt(20, 30), IoAt(50, 60),
               IoAt(100, 110)};
  // At 50: IO 1 completed exactly then (not in flight), 0 is; at 100 IO 0
  // has completed and 3 too.
  EXPECT_EQ(RecordedQueueDepths(trace), (std::vector<uint32_t>{1, 2, 3, 2, 1}));
}

TEST(ReplayFidelity, RecordedDepthIsUnknownWithoutCompletionTimes) {
  BlockIoTrace trace;
  trace.ios = {IoAt(0, -1), IoAt(10, -1)};
  EXPECT_TRUE(RecordedQueueDepths(trace).empty());
}

TEST(ReplayFidelity, IssueErrorQuantilesReorderingAndDepths) {
  // Errors 0, 10, 20, ..., 990 ns over 100 IOs (issued in order), and one
  // IO issued before its predecessor: 101 IOs.
  std::vector<ReplayIoRecord> records;
  for (int i = 0; i < 100; ++i) {
    records.push_back({.intended_ns = i * 1000,
                       .issued_ns = i * 1000 + i * 10,
                       .achieved_depth = static_cast<uint32_t>(1 + i % 4),
                       .recorded_depth = 2});
  }
  records.push_back({.intended_ns = 99'000,
                     .issued_ns = 99'500,  // before IO 99's 99'990
                     .achieved_depth = 1,
                     .recorded_depth = 4});
  const ReplayFidelity f = ComputeReplayFidelity(records, 1000);
  EXPECT_TRUE(f.timed);
  EXPECT_EQ(f.ios, 101u);
  // Sorted errors: 0..490 (50 values), 500 (two: IO 50 and the last),
  // 510..990. Nearest rank (exact below 1024 ns in the histogram): p50
  // rank 51 -> 500; p99 rank 100 -> 980.
  EXPECT_DOUBLE_EQ(f.error_p50_ns, 500);
  EXPECT_DOUBLE_EQ(f.error_p99_ns, 980);
  EXPECT_DOUBLE_EQ(f.error_max_ns, 990);
  EXPECT_EQ(f.reordered, 1u);
  EXPECT_DOUBLE_EQ(f.achieved_depth_mean, (25 * (1 + 2 + 3 + 4) + 1) / 101.0);
  EXPECT_EQ(f.achieved_depth_max, 4u);
  ASSERT_TRUE(f.recorded_depth_mean.has_value());
  EXPECT_DOUBLE_EQ(*f.recorded_depth_mean, (100 * 2 + 4) / 101.0);
  EXPECT_EQ(f.recorded_depth_max, 4u);
  // Mean inter-arrival 1 us: late above 2 us; p99 980 ns is kept.
  EXPECT_DOUBLE_EQ(f.late_threshold_ns, 2000);
  EXPECT_TRUE(f.kept_timing);
}

TEST(ReplayFidelity, LateAboveOneMillisecondOrTwoInterArrivals) {
  EXPECT_DOUBLE_EQ(ReplayLateThresholdNs(0), 1e6);
  EXPECT_DOUBLE_EQ(ReplayLateThresholdNs(2e6), 1e6);     // 500 IOPS
  EXPECT_DOUBLE_EQ(ReplayLateThresholdNs(50e3), 100e3);  // 20k IOPS
  std::vector<ReplayIoRecord> records;
  for (int i = 0; i < 10; ++i) {
    records.push_back({.intended_ns = i * 2'000'000,
                       .issued_ns = i * 2'000'000 + 1'500'000,
                       .achieved_depth = 1,
                       .recorded_depth = 0});
  }
  const ReplayFidelity late = ComputeReplayFidelity(records, 2e6);
  EXPECT_FALSE(late.kept_timing);
  // Since the errors went into a histogram (streaming, issue 40): the
  // midpoint of 1.5 ms's bucket, within its 0.1 %.
  EXPECT_NEAR(late.error_p99_ns, 1.5e6, 1.5e6 * buckets::kMaxRelativeError);
  EXPECT_FALSE(late.recorded_depth_mean.has_value());
  EXPECT_EQ(late.recorded_depth_max, 0u);
}

TEST(ReplayFidelity, AsFastAsPossibleHasNoIssueError) {
  std::vector<ReplayIoRecord> records = {
      {.intended_ns = -1, .issued_ns = 5, .achieved_depth = 1},
      {.intended_ns = -1, .issued_ns = 9, .achieved_depth = 2}};
  const ReplayFidelity f = ComputeReplayFidelity(records, 10);
  EXPECT_FALSE(f.timed);
  EXPECT_TRUE(f.kept_timing);
  EXPECT_EQ(f.reordered, 0u);
  EXPECT_DOUBLE_EQ(f.achieved_depth_mean, 1.5);
}

}  // namespace
}  // namespace flashmark
