#include "analysis/comparison_unit.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

using TagList = std::vector<std::pair<std::string, std::string>>;

// A run of `count` 1 s intervals writing `ios` 4 KiB IOs each (with a
// latency histogram unless `histograms` is false), analysed as write MiB/s.
struct AnalysedRun {
  RunResult run;
  RunAnalysis analysis;
  TagList tags;
};

AnalysedRun MakeAnalysedRun(uint64_t ios, uint32_t count, TagList tags,
                            bool histograms = true, bool reads = false) {
  AnalysedRun out;
  out.run.spec.mode = reads ? IoMode::kRndRd : IoMode::kRndWr;
  for (uint32_t t = 0; t < count; ++t) {
    IntervalSample sample;
    sample.index = t;
    sample.start_ns = t * 1'000'000'000ull;
    sample.end_ns = (t + 1) * 1'000'000'000ull;
    DirectionTotals& counts = reads ? sample.read : sample.write;
    counts.ios = ios;
    counts.bytes = ios * 4096;
    if (histograms)
      (reads ? sample.read_latency : sample.write_latency).Add(100'000, ios);
    out.run.intervals.push_back(sample);
  }
  (reads ? out.run.summary.read : out.run.summary.write).ios = 1;
  AnalysisOptions options = DefaultAnalysisOptions(out.run);
  out.analysis = AnalyzeRun(out.run, options);
  out.tags = std::move(tags);
  return out;
}

ComparisonMember Member(int64_t id, const AnalysedRun& run) {
  return {id, &run.run, &run.analysis, &run.tags};
}

TEST(ComparisonUnit, PoolsTheAnalysedWindowsOfItsRunsInOrder) {
  const AnalysedRun a =
      MakeAnalysedRun(256, 10, {{"price", "100"}, {"capacity", "1G"}});
  const AnalysedRun b = MakeAnalysedRun(512, 6, {}, /*histograms=*/false);
  auto unit = BuildComparisonUnit("card", {Member(1, a), Member(2, b)});
  ASSERT_TRUE(unit.ok()) << unit.error().message;
  EXPECT_EQ(unit->name, "card");
  ASSERT_EQ(unit->mibs.size(), 16u);
  EXPECT_DOUBLE_EQ(unit->mibs.front(), 1.0);  // 256 x 4 KiB per second
  EXPECT_DOUBLE_EQ(unit->mibs.back(), 2.0);
  ASSERT_EQ(unit->iops.size(), 16u);
  EXPECT_DOUBLE_EQ(unit->iops.front(), 256);
  EXPECT_DOUBLE_EQ(unit->iops.back(), 512);
  EXPECT_EQ(unit->p99_ns.size(), 10u)
      << "intervals without a histogram have no p99";
  ASSERT_TRUE(unit->price.has_value());
  EXPECT_DOUBLE_EQ(unit->price->amount, 100);
  EXPECT_DOUBLE_EQ(unit->capacity_bytes, 1e9);  // "1G": as vendors write it
}

// The unit's window is the headline's (the final regime after its
// warm-up), the one figure every command prints for the run.
TEST(ComparisonUnit, SkipsTheWarmupAndFailsWhenNothingIsLeft) {
  AnalysedRun a = MakeAnalysedRun(256, 10, {});
  EXPECT_EQ(a.analysis.headline.end_index, 10u);
  a.analysis.headline.first_index = 4;
  auto unit = BuildComparisonUnit("a", {Member(3, a)});
  ASSERT_TRUE(unit.ok());
  EXPECT_EQ(unit->mibs.size(), 6u);
  EXPECT_EQ(unit->iops.size(), 6u);
  EXPECT_EQ(unit->p99_ns.size(), 6u);
  a.analysis.headline.first_index = 10;
  auto none = BuildComparisonUnit("a", {Member(3, a)});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().exit_code, kUsageExit);
  EXPECT_NE(none.error().message.find("run 3 has no interval left"),
            std::string::npos);
}

TEST(ComparisonUnit, CapacityFromBlockDevicesIsNotSummedOverRepeats) {
  AnalysedRun a = MakeAnalysedRun(256, 4, {});
  TargetInfo device;
  device.kind = "block device";
  device.bytes = 1000;
  a.run.environment.targets = {device, device};  // two devices in one run
  TargetInfo file;
  file.kind = "file set";
  file.bytes = 5;
  a.run.environment.targets.push_back(file);
  auto unit = BuildComparisonUnit("a", {Member(1, a), Member(2, a)});
  ASSERT_TRUE(unit.ok());
  EXPECT_DOUBLE_EQ(unit->capacity_bytes, 2000);
  EXPECT_FALSE(unit->price.has_value());
}

TEST(ComparisonUnit, BadPriceOrCapacityIsAUsageErrorWithTheValueAndAHint) {
  for (const char* text : {"", "abc", "12x", "-5", "nan", "inf", "1e999"}) {
    const AnalysedRun a = MakeAnalysedRun(256, 4, {{"price", text}});
    auto unit = BuildComparisonUnit("a", {Member(7, a)});
    ASSERT_FALSE(unit.ok()) << text;
    EXPECT_EQ(unit.error().exit_code, kUsageExit);
    EXPECT_EQ(unit.error().message,
              std::string("run 7: price tag \"") + text + "\" is not a price");
    EXPECT_NE(unit.error().hint.find("price=5999"), std::string::npos);
  }
  for (const char* text : {"0", "5999", "12.5", "1e3"}) {
    auto price = ParsePriceTag(1, text);
    ASSERT_TRUE(price.ok()) << text;
    EXPECT_DOUBLE_EQ(price->amount, std::strtod(text, nullptr));
    EXPECT_EQ(price->currency, "");
  }
  const AnalysedRun bad_capacity =
      MakeAnalysedRun(256, 4, {{"capacity", "lots"}});
  auto unit = BuildComparisonUnit("a", {Member(8, bad_capacity)});
  ASSERT_FALSE(unit.ok());
  EXPECT_EQ(unit.error().exit_code, kUsageExit);
  EXPECT_NE(unit.error().message.find("capacity tag \"lots\""),
            std::string::npos);
}

// Reads with reads, writes with writes: anything else is refused, naming
// both runs and what each measures; so is one kind analysed on two metrics.
TEST(ComparisonUnit, OnlyLikeIsComparedWithLike) {
  const AnalysedRun writes = MakeAnalysedRun(256, 10, {});
  const AnalysedRun reads = MakeAnalysedRun(256, 10, {}, true, /*reads=*/true);
  EXPECT_TRUE(CheckLikeWithLike({Member(1, writes), Member(2, writes)}).ok());
  const Status unlike =
      CheckLikeWithLike({Member(1, writes), Member(2, reads)});
  ASSERT_FALSE(unlike.ok());
  EXPECT_EQ(unlike.error().exit_code, kUsageExit);
  EXPECT_NE(unlike.error().message.find(
                "run 1 measures write throughput, run 2 measures "
                "read throughput"),
            std::string::npos)
      << unlike.error().message;
  EXPECT_FALSE(
      BuildComparisonUnit("pooled", {Member(1, writes), Member(2, reads)})
          .ok());

  AnalysedRun iops = MakeAnalysedRun(256, 10, {});
  iops.analysis.metric = Metric::kIops;
  const Status metrics =
      CheckLikeWithLike({Member(1, writes), Member(3, iops)});
  ASSERT_FALSE(metrics.ok());
  EXPECT_NE(metrics.error().message.find(
                "run 1 is analysed on write throughput, run 3 on IOPS"),
            std::string::npos)
      << metrics.error().message;
}

}  // namespace
}  // namespace flashmark
