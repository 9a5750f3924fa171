// IntervalAligner: parts sampled on one grid of configured intervals are
// summed over the same stretch of time, a stalled part's long sample
// matched by the others' joined ones; nothing is emitted before every part
// got there; the tail keeps every IO; AppendInterval sums telemetry over
// time where MergeTelemetry counts a shared device once.
#include "model/interval_aligner.h"

#include <gtest/gtest.h>

#include "model/interval_merge.h"
#include "test_support.h"

namespace flashmark {
namespace {

using test_support::kMs;

// Part samples of `spans` configured 100 ms intervals each, `ios` IOs.
std::vector<IntervalSample> Samples(std::vector<uint32_t> spans, uint64_t ios) {
  std::vector<IntervalSample> samples;
  uint64_t at = 0;
  for (uint32_t span : spans) {
    IntervalSample sample;
    sample.index = static_cast<uint32_t>(samples.size());
    sample.start_ns = at * 100 * kMs;
    at += span;
    sample.end_ns = at * 100 * kMs;
    sample.spans = span;
    sample.read = {ios * span, ios * span * 4096};
    sample.read_latency.Add(1000 * span, ios * span);
    samples.push_back(sample);
  }
  return samples;
}

std::vector<const std::vector<IntervalSample>*> Of(
    const std::vector<IntervalSample>& a,
    const std::vector<IntervalSample>& b) {
  return {&a, &b};
}

TEST(IntervalAligner, EqualPartsSumIntervalByInterval) {
  const auto a = Samples({1, 1, 1}, 10);
  const auto b = Samples({1, 1, 1}, 7);
  IntervalAligner aligner(2);
  for (uint32_t k = 0; k < 3; ++k) {
    auto lined = aligner.Next(Of(a, b));
    ASSERT_TRUE(lined);
    EXPECT_EQ(lined->total.index, k);
    EXPECT_EQ(lined->total.spans, 1u);
    EXPECT_EQ(lined->total.read.ios, 17u);
    EXPECT_EQ(lined->total.read_latency.count(), 17u);
    ASSERT_EQ(lined->parts.size(), 2u);
    EXPECT_EQ(lined->parts[1].read.ios, 7u);
  }
  EXPECT_FALSE(aligner.Next(Of(a, b)));
  EXPECT_FALSE(aligner.Tail(Of(a, b)));
  EXPECT_EQ(aligner.emitted(), 3u);
}

// b was stalled over its second and third intervals: one sample of 2.
TEST(IntervalAligner, AStalledPartsLongSampleMeetsTheOthersJoined) {
  const auto a = Samples({1, 1, 1, 1}, 10);
  const auto b = Samples({1, 2, 1}, 7);
  IntervalAligner aligner(2);
  auto first = aligner.Next(Of(a, b));
  ASSERT_TRUE(first);
  EXPECT_EQ(first->total.read.ios, 17u);
  auto stretch = aligner.Next(Of(a, b));
  ASSERT_TRUE(stretch);
  EXPECT_EQ(stretch->total.index, 1u);
  EXPECT_EQ(stretch->total.spans, 2u);
  EXPECT_EQ(stretch->total.start_ns, 100 * kMs);
  EXPECT_EQ(stretch->total.end_ns, 300 * kMs);
  EXPECT_EQ(stretch->total.read.ios, 20u + 14u);
  EXPECT_EQ(stretch->parts[0].read.ios, 20u);
  EXPECT_EQ(stretch->parts[0].end_ns, 300 * kMs);
  EXPECT_EQ(stretch->total.read_latency.count(), 34u);
  // 34 IOs in 0.2 s, not 34 in 0.1 s.
  EXPECT_DOUBLE_EQ(stretch->total.Iops(), 170);
  auto last = aligner.Next(Of(a, b));
  ASSERT_TRUE(last);
  EXPECT_EQ(last->total.index, 2u);
  EXPECT_EQ(last->total.spans, 1u);
  EXPECT_EQ(last->total.read.ios, 17u);
  EXPECT_FALSE(aligner.Next(Of(a, b)));
}

TEST(IntervalAligner, WaitsForEveryPartThenGoesOn) {
  std::vector<IntervalSample> a = Samples({1, 1, 1}, 10);
  std::vector<IntervalSample> b;
  IntervalAligner aligner(2);
  EXPECT_FALSE(aligner.Next(Of(a, b)));
  const auto later = Samples({2, 1}, 5);
  b.push_back(later[0]);  // it covers a's first two
  auto joined = aligner.Next(Of(a, b));
  ASSERT_TRUE(joined);
  EXPECT_EQ(joined->total.spans, 2u);
  EXPECT_EQ(joined->total.read.ios, 20u + 10u);
  EXPECT_FALSE(aligner.Next(Of(a, b)));
  b.push_back(later[1]);
  auto next = aligner.Next(Of(a, b));
  ASSERT_TRUE(next);
  EXPECT_EQ(next->total.read.ios, 15u);
}

TEST(IntervalAligner, APartialSampleEndsTheLineAndTheTailKeepsEveryIo) {
  std::vector<IntervalSample> a = Samples({1, 1, 1}, 10);
  std::vector<IntervalSample> b = Samples({1, 1}, 7);
  b[1].partial = true;  // b stopped early: its drain
  IntervalAligner aligner(2);
  ASSERT_TRUE(aligner.Next(Of(a, b)));
  EXPECT_FALSE(aligner.Next(Of(a, b)));
  auto tail = aligner.Tail(Of(a, b));
  ASSERT_TRUE(tail);
  EXPECT_TRUE(tail->partial);
  EXPECT_EQ(tail->index, 1u);
  EXPECT_EQ(tail->read.ios, 20u + 7u);
  EXPECT_EQ(tail->start_ns, 100 * kMs);
  EXPECT_EQ(tail->end_ns, 300 * kMs);
}

TEST(IntervalMerge, OverTimeTelemetrySumsAcrossPartsItCountsOnce) {
  IntervalSample first, second;
  first.end_ns = 1;
  second.end_ns = 2;
  DiskActivity disk;
  disk.device = "vdb";
  disk.busy_ms = 3;
  first.telemetry.disks.push_back(disk);
  second.telemetry.disks.push_back(disk);
  CpuActivity cpu;
  cpu.user = 0.5;
  first.telemetry.cpu = cpu;
  second.telemetry.cpu = cpu;
  second.telemetry.temperature_celsius = 40;

  IntervalSample over_time = first;
  AppendInterval(over_time, second);
  EXPECT_EQ(over_time.end_ns, 2u);
  EXPECT_EQ(over_time.spans, 2u);
  ASSERT_EQ(over_time.telemetry.disks.size(), 1u);
  EXPECT_EQ(over_time.telemetry.disks[0].busy_ms, 6u);
  EXPECT_DOUBLE_EQ(over_time.telemetry.cpu->user, 1.0);
  EXPECT_EQ(over_time.telemetry.temperature_celsius, 40);

  IntervalSample at_once = first;
  MergeInterval(at_once, second);
  EXPECT_EQ(at_once.end_ns, 1u);
  EXPECT_EQ(at_once.telemetry.disks[0].busy_ms, 3u);
  EXPECT_DOUBLE_EQ(at_once.telemetry.cpu->user, 0.5);
}

}  // namespace
}  // namespace flashmark
