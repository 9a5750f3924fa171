// The SNIA PTS tests as campaigns (config/pts_plan.h): each test's cells,
// their order, TC/QD, active range, rounds and reset steps against the
// specification's tables, loaded and expanded as `flashmark pts` does.
#include "config/pts_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "config/campaign_env.h"
#include "config/campaign_spec.h"
#include "test_support.h"

namespace flashmark {
namespace {

using test_support::FixedEnvironment;
using test_support::kGiB;

using Strings = std::vector<std::string>;

PtsSettings Settings(PtsTest test, double scale = 1.0,
                     PtsProfile profile = PtsProfile::kEnterprise) {
  PtsSettings settings;
  settings.test = test;
  settings.profile = profile;
  settings.device = "/dev/nvme9n1";
  settings.capacity = 400 * kGiB;
  settings.scale = scale;
  return settings;
}

struct Loaded {
  PtsSegment segment;
  CampaignSpec campaign;
  std::vector<CampaignCell> cells;
};

std::vector<Loaded> PtsPlan(const PtsSettings& settings) {
  auto segments = PlanPts(settings);
  EXPECT_TRUE(segments.ok()) << segments.error().message;
  std::vector<Loaded> loaded;
  if (!segments.ok()) return loaded;
  for (const PtsSegment& segment : *segments) {
    auto campaign = LoadCampaignText(segment.toml, segment.name + ".toml",
                                     FixedEnvironment());
    EXPECT_TRUE(campaign.ok()) << campaign.error().message << "\n"
                               << segment.toml;
    if (!campaign.ok()) continue;
    auto cells = ExpandCampaign(*campaign);
    EXPECT_TRUE(cells.ok()) << cells.error().message;
    if (!cells.ok()) continue;
    loaded.push_back({segment, *campaign, *cells});
  }
  return loaded;
}

std::string Parameter(const CampaignCell& cell, const std::string& name) {
  for (const auto& [key, value] : cell.parameters) {
    if (key == name) return value;
  }
  return "";
}

// The first round's values of one parameter, in plan order.
Strings RoundValues(const Loaded& loaded, const std::string& name) {
  Strings values;
  for (const CampaignCell& cell : loaded.cells) {
    if (cell.repeat != 0) break;
    values.push_back(Parameter(cell, name));
  }
  return values;
}

const ResetStep* Step(const CampaignSpec& campaign, ResetKind kind,
                      size_t nth = 0) {
  for (const ResetStep& step : campaign.reset) {
    if (step.kind == kind && nth-- == 0) return &step;
  }
  return nullptr;
}

// The enterprise profile's write cache off, the purge, then the WIPC: 2x
// the capacity of sequential 128 KiB writes.
void ExpectPurgeAndWipc(const CampaignSpec& campaign, uint64_t capacity) {
  ASSERT_GE(campaign.reset.size(), 3u);
  EXPECT_EQ(campaign.reset[0].kind, ResetKind::kWriteCache);
  EXPECT_FALSE(campaign.reset[0].write_cache_on);
  EXPECT_TRUE(campaign.reset[0].once);
  EXPECT_EQ(campaign.reset[1].kind, ResetKind::kSecureErase);
  EXPECT_TRUE(campaign.reset[1].once);
  const ResetStep& wipc = campaign.reset[2];
  EXPECT_EQ(wipc.kind, ResetKind::kPrecondition);
  EXPECT_TRUE(wipc.once);
  EXPECT_EQ(wipc.precondition_workload.mode, "seqwr");
  EXPECT_EQ(wipc.precondition_workload.bs, "128k");
  EXPECT_EQ(wipc.precondition_workload.bytes, std::to_string(2 * capacity));
}

TEST(PtsPlanTest, IopsIsSevenMixesOuterTimesEightBlockSizesInner) {
  const auto loaded = PtsPlan(Settings(PtsTest::kIops));
  ASSERT_EQ(loaded.size(), 1u);
  const Loaded& iops = loaded[0];
  EXPECT_EQ(iops.cells.size(), 56u * 25u);
  EXPECT_EQ(iops.campaign.repeats, 25);
  Strings mixes, sizes;
  const Strings round_mixes = RoundValues(iops, "read-pct");
  const Strings round_sizes = RoundValues(iops, "bs");
  ASSERT_EQ(round_mixes.size(), 56u);
  for (size_t i = 0; i < 56; i += 8) mixes.push_back(round_mixes[i]);
  for (size_t i = 0; i < 8; ++i) sizes.push_back(round_sizes[i]);
  EXPECT_EQ(mixes, (Strings{"100", "95", "65", "50", "35", "5", "0"}));
  EXPECT_EQ(sizes,
            (Strings{"1024k", "128k", "64k", "32k", "16k", "8k", "4k", "512"}));
  const CampaignCell& first = iops.cells[0];
  EXPECT_EQ(first.options.mode, "rndrw");
  EXPECT_EQ(first.options.threads, "4");
  EXPECT_EQ(first.options.iodepth, "32");
  EXPECT_EQ(first.options.size, "100%");
  EXPECT_EQ(first.options.time, "60s");
  EXPECT_TRUE(first.options.direct);
  EXPECT_EQ(first.options.targets, Strings{"/dev/nvme9n1"});
  ASSERT_TRUE(iops.campaign.round_steady_state);
  const RoundSteadyState& steady = *iops.campaign.round_steady_state;
  EXPECT_EQ(steady.metric, RoundMetric::kIops);
  EXPECT_EQ(steady.window, 5);
  EXPECT_DOUBLE_EQ(steady.data_excursion, 0.20);
  EXPECT_DOUBLE_EQ(steady.slope_excursion, 0.10);
  int tracked = 0;
  for (const CampaignCell& cell : iops.cells) {
    if (!CellMatches(steady.where, cell)) continue;
    ++tracked;
    EXPECT_EQ(Parameter(cell, "bs"), "4k");
    EXPECT_EQ(Parameter(cell, "read-pct"), "0");
  }
  EXPECT_EQ(tracked, 25);
  ExpectPurgeAndWipc(iops.campaign, 400 * kGiB);
  // 56 one-minute cells a round, 5 to 25 rounds: 4.7 h to 23.3 h.
  EXPECT_EQ(iops.segment.round_time, std::chrono::minutes(56));
  EXPECT_EQ(iops.segment.min_rounds, 5);
  EXPECT_EQ(iops.segment.max_rounds, 25);
}

TEST(PtsPlanTest, ClientProfileIsTc2Qd16OverThreeQuartersOfTheDevice) {
  const auto loaded =
      PtsPlan(Settings(PtsTest::kIops, 1.0, PtsProfile::kClient));
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].cells[0].options.threads, "2");
  EXPECT_EQ(loaded[0].cells[0].options.iodepth, "16");
  EXPECT_EQ(loaded[0].cells[0].options.size, "75%");
  // The client profile runs with the write cache on.
  ASSERT_FALSE(loaded[0].campaign.reset.empty());
  EXPECT_EQ(loaded[0].campaign.reset[0].kind, ResetKind::kWriteCache);
  EXPECT_TRUE(loaded[0].campaign.reset[0].write_cache_on);
  EXPECT_EQ(PtsActiveRange(Settings(PtsTest::kIops, 1.0, PtsProfile::kClient)),
            300 * kGiB);
}

TEST(PtsPlanTest, ThroughputHasOneSegmentPerBlockSizeEachFromItsPurge) {
  const auto loaded = PtsPlan(Settings(PtsTest::kThroughput));
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].segment.name, "pts-throughput-128k");
  EXPECT_EQ(loaded[1].segment.name, "pts-throughput-1024k");
  for (const Loaded& segment : loaded) {
    EXPECT_EQ(RoundValues(segment, "mode"), (Strings{"seqrd", "seqwr"}));
    EXPECT_EQ(segment.cells.size(), 50u);
    EXPECT_EQ(segment.cells[0].options.threads, "1");
    EXPECT_EQ(segment.cells[0].options.iodepth, "32");
    ASSERT_TRUE(segment.campaign.round_steady_state);
    EXPECT_EQ(segment.campaign.round_steady_state->metric, RoundMetric::kMibs);
    EXPECT_FALSE(CellMatches(segment.campaign.round_steady_state->where,
                             segment.cells[0]));
    EXPECT_TRUE(CellMatches(segment.campaign.round_steady_state->where,
                            segment.cells[1]));
    ExpectPurgeAndWipc(segment.campaign, 400 * kGiB);
  }
  EXPECT_EQ(loaded[0].cells[0].options.bs, "128k");
  EXPECT_EQ(loaded[1].cells[0].options.bs, "1024k");
  // Client: 1024 KiB only.
  EXPECT_EQ(
      PtsPlan(Settings(PtsTest::kThroughput, 1.0, PtsProfile::kClient)).size(),
      1u);
}

TEST(PtsPlanTest, LatencyIsThreeMixesTimesThreeSizesAtOneThreadQd1) {
  const auto loaded = PtsPlan(Settings(PtsTest::kLatency));
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(RoundValues(loaded[0], "read-pct"),
            (Strings{"100", "100", "100", "65", "65", "65", "0", "0", "0"}));
  EXPECT_EQ(RoundValues(loaded[0], "bs"),
            (Strings{"8k", "4k", "512", "8k", "4k", "512", "8k", "4k", "512"}));
  EXPECT_EQ(loaded[0].cells[0].options.threads, "1");
  EXPECT_EQ(loaded[0].cells[0].options.iodepth, "1");
  ASSERT_TRUE(loaded[0].campaign.round_steady_state);
  EXPECT_EQ(loaded[0].campaign.round_steady_state->metric,
            RoundMetric::kLatency);
}

TEST(PtsPlanTest, WsatWritesFourTimesTheActiveRangeOrStopsAt24Hours) {
  const auto loaded = PtsPlan(Settings(PtsTest::kWsat));
  ASSERT_EQ(loaded.size(), 1u);
  ASSERT_EQ(loaded[0].cells.size(), 1u);
  const RunOptions& options = loaded[0].cells[0].options;
  EXPECT_EQ(options.mode, "rndwr");
  EXPECT_EQ(options.bs, "4k");
  EXPECT_EQ(options.bytes, std::to_string(4 * 400 * kGiB));
  EXPECT_EQ(options.time, "86400s");
  EXPECT_EQ(options.interval, "60s");
  EXPECT_FALSE(loaded[0].campaign.round_steady_state);
  // From fresh out of box: the write cache off, a purge, no
  // preconditioning.
  ASSERT_EQ(loaded[0].campaign.reset.size(), 2u);
  EXPECT_EQ(loaded[0].campaign.reset[0].kind, ResetKind::kWriteCache);
  EXPECT_EQ(loaded[0].campaign.reset[1].kind, ResetKind::kSecureErase);
}

TEST(PtsPlanTest, HirBurstsWithEachWaitStateThenAReturnToBaseline) {
  const auto loaded = PtsPlan(Settings(PtsTest::kHir));
  ASSERT_EQ(loaded.size(), 1u);
  const auto& cells = loaded[0].cells;
  ASSERT_EQ(cells.size(), 10u);
  const int waits[] = {5, 10, 15, 25, 50};
  for (int k = 0; k < 5; ++k) {
    const RunOptions& burst = cells[2 * k].options;
    EXPECT_EQ(burst.thinktime_iotime, "5s");
    EXPECT_EQ(burst.thinktime, std::to_string(waits[k]) + "s");
    EXPECT_EQ(burst.time, std::to_string(360 * (5 + waits[k])) + "s");
    const RunOptions& baseline = cells[2 * k + 1].options;
    EXPECT_FALSE(baseline.thinktime);
    EXPECT_EQ(baseline.time, "1800s");
    EXPECT_EQ(Parameter(cells[2 * k + 1], "hir"),
              "baseline after " + std::to_string(waits[k]) + "s");
  }
  // Purge, then random 4 KiB writes until steady.
  const ResetStep* until_steady =
      Step(loaded[0].campaign, ResetKind::kPrecondition);
  ASSERT_NE(until_steady, nullptr);
  EXPECT_TRUE(until_steady->precondition_workload.until_steady);
  EXPECT_EQ(until_steady->precondition_workload.bs, "4k");
}

TEST(PtsPlanTest, XsrIsSequentialRandomSequentialWithoutWipc) {
  const auto loaded = PtsPlan(Settings(PtsTest::kXsr));
  ASSERT_EQ(loaded.size(), 1u);
  const auto& cells = loaded[0].cells;
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0].options.mode, "seqwr");
  EXPECT_EQ(cells[0].options.bs, "1024k");
  EXPECT_EQ(cells[0].options.time, "28800s");
  EXPECT_EQ(cells[1].options.mode, "rndwr");
  EXPECT_EQ(cells[1].options.bs, "8k");
  EXPECT_EQ(cells[1].options.time, "21600s");
  EXPECT_EQ(cells[2].options.mode, "seqwr");
  EXPECT_EQ(cells[2].options.time, "28800s");
  EXPECT_EQ(cells[0].options.threads, "1");
  EXPECT_EQ(cells[0].options.iodepth, "32");
  EXPECT_EQ(Step(loaded[0].campaign, ResetKind::kPrecondition), nullptr);
}

TEST(PtsPlanTest, EcwSweepsOutstandingIosOverTheCompositeMixAndHotZones) {
  const auto loaded = PtsPlan(Settings(PtsTest::kEcw));
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(RoundValues(loaded[0], "iodepth"),
            (Strings{"32", "16", "8", "6", "4", "2", "1"}));
  const RunOptions& options = loaded[0].cells[0].options;
  EXPECT_EQ(options.read_pct, "40");
  EXPECT_EQ(options.distribution, "zoned:50/5:30/15:20/80");
  EXPECT_EQ(options.bs,
            "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:"
            "32k/3:64k/3");
  EXPECT_TRUE(CellMatches(loaded[0].campaign.round_steady_state->where,
                          loaded[0].cells[0]));
  ExpectPurgeAndWipc(loaded[0].campaign, 400 * kGiB);
}

TEST(PtsPlanTest, DirthIsThreadsTimesQueueDepthAfterARoundPreWrite) {
  const auto loaded = PtsPlan(Settings(PtsTest::kDirth));
  ASSERT_EQ(loaded.size(), 1u);
  const Strings threads = RoundValues(loaded[0], "threads");
  const Strings depths = RoundValues(loaded[0], "iodepth");
  ASSERT_EQ(threads.size(), 49u);
  EXPECT_EQ(threads[0], "32");
  EXPECT_EQ(depths[0], "32");
  EXPECT_EQ(depths[6], "1");
  EXPECT_EQ(threads[7], "16");
  EXPECT_EQ(threads[48], "1");
  EXPECT_EQ(depths[48], "1");
  EXPECT_EQ(loaded[0].cells[0].options.read_pct, "65");
  EXPECT_EQ(loaded[0].cells[0].options.bs, "8k");
  // The 5-minute pre-write runs before the TC32/QD32 cell of every round.
  const ResetStep* prewrite =
      Step(loaded[0].campaign, ResetKind::kPrecondition, 2);
  ASSERT_NE(prewrite, nullptr);
  EXPECT_FALSE(prewrite->once);
  EXPECT_EQ(prewrite->precondition_workload.time, "300s");
  int before = 0;
  for (const CampaignCell& cell : loaded[0].cells) {
    if (ResetStepApplies(*prewrite, cell)) {
      ++before;
      EXPECT_EQ(Parameter(cell, "threads"), "32");
      EXPECT_EQ(Parameter(cell, "iodepth"), "32");
    }
  }
  EXPECT_EQ(before, 25);
}

TEST(PtsPlanTest, ScaleShortensCellsAndWritesButKeepsTheRounds) {
  const auto loaded = PtsPlan(Settings(PtsTest::kIops, 0.01));
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].cells[0].options.time, "600ms");
  EXPECT_EQ(loaded[0].cells[0].options.interval, "120ms");
  EXPECT_EQ(loaded[0].cells.size(), 56u * 25u);
  EXPECT_NE(loaded[0].segment.toml.find("not a compliant run"),
            std::string::npos);
  const ResetStep* wipc = Step(loaded[0].campaign, ResetKind::kPrecondition);
  ASSERT_NE(wipc, nullptr);
  EXPECT_EQ(wipc->precondition_workload.bytes,
            std::to_string(uint64_t{8} * kGiB + 0));  // 2 x 400 GiB x 1 %
  PtsSettings rounds = Settings(PtsTest::kIops, 0.01);
  rounds.max_rounds = 5;
  const auto five = PtsPlan(rounds);
  ASSERT_EQ(five.size(), 1u);
  EXPECT_EQ(five[0].cells.size(), 56u * 5u);
}

TEST(PtsPlanTest, OverridesReplaceTheSpecificationsThreadsAndDepth) {
  PtsSettings settings = Settings(PtsTest::kLatency);
  settings.threads = 2;
  settings.iodepth = 4;
  const auto loaded = PtsPlan(settings);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].cells[0].options.threads, "2");
  EXPECT_EQ(loaded[0].cells[0].options.iodepth, "4");
}

TEST(PtsPlanTest, BadSettingsAreUsageErrors) {
  const auto refused = [](PtsSettings settings, const std::string& part) {
    auto planned = PlanPts(settings);
    ASSERT_FALSE(planned.ok()) << part;
    EXPECT_EQ(planned.error().exit_code, 2);
    EXPECT_NE(planned.error().message.find(part), std::string::npos)
        << planned.error().message;
    EXPECT_FALSE(planned.error().hint.empty());
  };
  refused(Settings(PtsTest::kIops, 0), "--scale");
  refused(Settings(PtsTest::kIops, 1.5), "--scale");
  PtsSettings dirth = Settings(PtsTest::kDirth);
  dirth.threads = 4;
  refused(dirth, "does not apply to the dirth test");
  PtsSettings ecw = Settings(PtsTest::kEcw);
  ecw.iodepth = 4;
  refused(ecw, "does not apply to the ecw test");
  PtsSettings zero = Settings(PtsTest::kIops);
  zero.threads = 0;
  refused(zero, "--threads: 0");
  PtsSettings rounds = Settings(PtsTest::kIops);
  rounds.max_rounds = 4;
  refused(rounds, "--max-rounds: 4");
  PtsSettings small = Settings(PtsTest::kIops);
  small.capacity = 32ull << 20;
  refused(small, "too small for the PTS");

  auto unknown = ParsePtsTests("iopss");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().hint.find("iops, throughput, latency, wsat, hir, "
                                      "xsr, ecw, dirth"),
            std::string::npos);
  EXPECT_FALSE(ParsePtsProfile("server").ok());
  auto all = ParsePtsTests("all");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 8u);
}

}  // namespace
}  // namespace flashmark
