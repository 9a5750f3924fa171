// LatencyJoin: block events and flashmark's IOs joined into the four
// parts, on a clock whose ticks are nanoseconds (CycleClock()).
#include "system/latency_join.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

using Kind = BlockEvent::Kind;
constexpr uint32_t kDev = (7u << 20) | 3;  // loop3

BlockEvent Event(Kind kind, uint64_t sector, uint32_t sectors, uint64_t ticks) {
  return {kind, kDev, sector, sectors, ticks};
}

// One request's three events.
void Request(LatencyJoin& join, uint64_t sector, uint32_t sectors,
             uint64_t queued, uint64_t issued, uint64_t completed) {
  join.AddEvent(Event(Kind::kQueue, sector, sectors, queued));
  join.AddEvent(Event(Kind::kIssue, sector, sectors, issued));
  join.AddEvent(Event(Kind::kComplete, sector, sectors, completed));
}

// The one value a part's histogram holds (within its bucket).
double Only(const LatencyHistogram& histogram) {
  EXPECT_EQ(histogram.count(), 1u);
  return histogram.Quantile(0.5);
}

TEST(LatencyJoin, AnIoIsCutAtItsRequestsEvents) {
  LatencyJoin join{CycleClock()};
  Request(join, 800, 8, 1'000'200, 1'000'500, 1'060'500);
  join.AddIo({kDev, 800, 8, 1'000'000, 1'062'500});
  const LatencySplit split = join.Take();
  EXPECT_EQ(split.traced(), 1u);
  EXPECT_EQ(split.untraced, 0u);
  EXPECT_NEAR(Only(split.flashmark), 200, 1);
  EXPECT_NEAR(Only(split.queue), 300, 1);
  EXPECT_NEAR(Only(split.device), 60'000, 60'000 * 0.001);
  EXPECT_NEAR(Only(split.completion), 2'000, 2);
  EXPECT_TRUE(join.Take().empty()) << "handed over once";
}

TEST(LatencyJoin, ARequestIssuedWithoutItsQueueEventHasNoQueueTime) {
  LatencyJoin join{CycleClock()};
  join.AddEvent(Event(Kind::kIssue, 16, 8, 5'000));
  join.AddEvent(Event(Kind::kComplete, 16, 8, 9'000));
  join.AddIo({kDev, 16, 8, 4'000, 9'500});
  const LatencySplit split = join.Take();
  EXPECT_NEAR(Only(split.flashmark), 1'000, 1);
  EXPECT_EQ(Only(split.queue), 0);
  EXPECT_NEAR(Only(split.device), 4'000, 4);
}

TEST(LatencyJoin, ASplitBioIsOneIoWhosePartsAddUpToItsLatency) {
  LatencyJoin join{CycleClock()};
  // 1 MiB at sector 0 in two 512 KiB requests; the second completes last.
  Request(join, 0, 1024, 10'000, 11'000, 50'000);
  join.AddEvent(Event(Kind::kIssue, 1024, 1024, 12'000));
  join.AddEvent(Event(Kind::kComplete, 1024, 1024, 70'000));
  join.AddIo({kDev, 0, 2048, 9'000, 71'000});
  const LatencySplit split = join.Take();
  EXPECT_EQ(split.traced(), 1u);
  EXPECT_NEAR(Only(split.flashmark), 1'000, 1);
  EXPECT_NEAR(Only(split.device), 58'000, 58);  // the last piece's
  EXPECT_NEAR(Only(split.completion), 1'000, 1);
  EXPECT_NEAR(Only(split.queue), 62'000 - 1'000 - 58'000 - 1'000, 3);
}

TEST(LatencyJoin, EachIosPartsAreKeptByItsLatency) {
  LatencyJoin join{CycleClock()};
  Request(join, 800, 8, 1'000'200, 1'000'500, 1'060'500);
  join.AddIo({kDev, 800, 8, 1'000'000, 1'062'500});
  Request(join, 1600, 8, 2'000'100, 2'000'200, 2'300'200);
  join.AddIo({kDev, 1600, 8, 2'000'000, 2'301'000});
  const SplitByLatency by_latency = join.Take().by_latency;
  ASSERT_EQ(by_latency.ios(), 2u);
  const std::array<double, 4> low = by_latency.PartsAt(0.5);
  EXPECT_EQ(low, (std::array<double, 4>{200, 300, 60'000, 2'000}));
  const std::array<double, 4> high = by_latency.PartsAt(1.0);
  EXPECT_EQ(high, (std::array<double, 4>{100, 100, 300'000, 800}));
}

TEST(LatencyJoin, EventsThatComeAfterTheIoAreJoinedAtTheNextTake) {
  LatencyJoin join{CycleClock()};
  join.AddIo({kDev, 64, 8, 100, 900});
  Request(join, 64, 8, 150, 200, 800);
  const LatencySplit split = join.Take();
  EXPECT_EQ(split.traced(), 1u);
  EXPECT_EQ(split.untraced, 0u);
}

TEST(LatencyJoin, AnIoWithoutItsRequestsIsUntracedAfterWaitingTwoTakes) {
  LatencyJoin join{CycleClock()};
  join.AddIo({kDev, 64, 8, 100, 900});
  EXPECT_TRUE(join.Take().empty()) << "it waits";
  const LatencySplit split = join.Take();
  EXPECT_EQ(split.traced(), 0u);
  EXPECT_EQ(split.untraced, 1u);
}

TEST(LatencyJoin, RequestsOutsideTheIosTimeOrOnAnotherDeviceAreNotItsOwn) {
  LatencyJoin join{CycleClock()};
  // An earlier IO's, 50 us before this one: not clock skew.
  Request(join, 64, 8, 10'000, 20'000, 50'000);
  join.AddEvent({Kind::kQueue, kDev + 1, 64, 8, 150'000});
  join.AddEvent({Kind::kIssue, kDev + 1, 64, 8, 160'000});
  join.AddEvent({Kind::kComplete, kDev + 1, 64, 8, 700'000});
  join.AddIo({kDev, 64, 8, 100'000, 900'000});
  const LatencySplit split = join.Finish();
  EXPECT_EQ(split.traced(), 0u);
  EXPECT_EQ(split.untraced, 1u) << "Finish counts the waiting untraced";
}

TEST(LatencyJoin, TwoIosOnOneSectorTakeTheirOwnRequests) {
  LatencyJoin join{CycleClock()};
  // Both within the other's clock-skew allowance: each IO takes the
  // request queued nearest its submission.
  Request(join, 8, 8, 1'000, 1'100, 2'000);
  Request(join, 8, 8, 5'000, 5'100, 9'000);
  join.AddIo({kDev, 8, 8, 4'800, 9'100});
  join.AddIo({kDev, 8, 8, 900, 2'100});
  const LatencySplit split = join.Take();
  ASSERT_EQ(split.traced(), 2u);
  EXPECT_NEAR(split.flashmark.Quantile(0), 100, 1);
  EXPECT_NEAR(split.flashmark.Quantile(1), 200, 1);
  EXPECT_NEAR(split.device.Quantile(0), 900, 1);
  EXPECT_NEAR(split.device.Quantile(1), 3'900, 4);
}

TEST(LatencyJoin, AnotherCpusClockAFewMicrosecondsBehindStillJoins) {
  LatencyJoin join{CycleClock()};
  // Queued 2 us "before" the submission, as another CPU's clock reads it.
  Request(join, 8, 8, 98'000, 99'000, 150'000);
  join.AddIo({kDev, 8, 8, 100'000, 152'000});
  const LatencySplit split = join.Take();
  ASSERT_EQ(split.traced(), 1u);
  EXPECT_EQ(Only(split.flashmark), 0) << "never negative";
  EXPECT_NEAR(Only(split.device), 51'000, 51);
}

TEST(LatencyJoin, UntracedIosGivenDirectlyAreCounted) {
  LatencyJoin join{CycleClock()};
  join.AddUntraced(3);
  EXPECT_EQ(join.Take().untraced, 3u);
}

}  // namespace
}  // namespace flashmark
