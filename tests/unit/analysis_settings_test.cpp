// A campaign's [analysis] choice: parsed like the command-line options,
// carried by the run (its stored config) into every command's defaults,
// and replaced, visibly, by a command's own option.
#include "analysis/analysis_settings.h"

#include <gtest/gtest.h>

#include "analysis/run_analysis.h"
#include "document/json_format.h"

namespace flashmark {
namespace {

RunResult WriteRun(AnalysisSettings analysis) {
  RunResult run;
  run.spec.mode = IoMode::kRndWr;
  run.spec.interval = std::chrono::seconds(1);
  run.spec.analysis = std::move(analysis);
  return run;
}

TEST(AnalysisSettingsTest, CommandLineAndCampaignParseAlike) {
  AnalysisOptions options;
  const AnalysisSettings all{"30m", "iops", "120s", "5m", "3%"};
  ASSERT_TRUE(
      ApplyAnalysisSettings(all, 1.0, SettingsSource::kCampaign, options).ok());
  EXPECT_EQ(options.warmup, WarmupMode::kFixed);
  EXPECT_DOUBLE_EQ(options.warmup_seconds, 1800);
  EXPECT_EQ(options.metric, Metric::kIops);
  EXPECT_DOUBLE_EQ(options.snia.round_seconds, 120);
  EXPECT_EQ(options.regimes.min_segment_intervals, 300u);
  EXPECT_FALSE(options.regimes.scale_min_segment);
  EXPECT_DOUBLE_EQ(options.regimes.magnitude_gate, 0.03);

  AnalysisSettings none;
  none.warmup = "none";
  ASSERT_TRUE(
      ApplyAnalysisSettings(none, 1.0, SettingsSource::kCommandLine, options)
          .ok());
  EXPECT_EQ(options.warmup, WarmupMode::kNone);
}

TEST(AnalysisSettingsTest, ACampaignsHeadlineIsThroughputOrIops) {
  AnalysisSettings latency;
  latency.metric = "p99";
  AnalysisOptions options;
  // `analyze --metric p99` analyses latency ...
  EXPECT_TRUE(
      ApplyAnalysisSettings(latency, 1.0, SettingsSource::kCommandLine, options)
          .ok());
  // ... but a campaign's headline (list, the sweep table) cannot be one.
  const Status refused =
      ApplyAnalysisSettings(latency, 1.0, SettingsSource::kCampaign, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().exit_code, kUsageExit);
  EXPECT_NE(refused.error().message.find("[analysis] metric"),
            std::string::npos);
}

TEST(AnalysisSettingsTest, ErrorsNameTheOptionOrTheKey) {
  AnalysisSettings bad;
  bad.round = "0.5s";
  AnalysisOptions options;
  const Status command =
      ApplyAnalysisSettings(bad, 1.0, SettingsSource::kCommandLine, options);
  ASSERT_FALSE(command.ok());
  EXPECT_EQ(command.error().message.rfind("--round: \"0.5s\"", 0), 0u)
      << command.error().message;
  EXPECT_NE(command.error().hint.find("--round 60s"), std::string::npos);
  const Status campaign =
      ApplyAnalysisSettings(bad, 1.0, SettingsSource::kCampaign, options);
  ASSERT_FALSE(campaign.ok());
  EXPECT_EQ(campaign.error().message.rfind("[analysis] round: \"0.5s\"", 0), 0u)
      << campaign.error().message;
  EXPECT_NE(campaign.error().hint.find("round = \"60s\""), std::string::npos);
}

// Every command starts from the run's own defaults with its campaign's
// choice on top: one headline in list, show, compare and report.
TEST(AnalysisSettingsTest, TheRunsDefaultsAreItsCampaigns) {
  const RunResult plain = WriteRun({});
  EXPECT_EQ(DefaultAnalysisOptions(plain).warmup, WarmupMode::kAuto);
  EXPECT_EQ(HeadlineMetric(plain), DefaultMetric(plain));

  const RunResult chosen = WriteRun({"30s", "iops", {}, {}, {}});
  const AnalysisOptions options = DefaultAnalysisOptions(chosen);
  EXPECT_EQ(options.warmup, WarmupMode::kFixed);
  EXPECT_DOUBLE_EQ(options.warmup_seconds, 30);
  EXPECT_EQ(options.metric, Metric::kIops);
  EXPECT_EQ(HeadlineMetric(chosen), Metric::kIops);

  // A stored choice this build cannot read leaves every default.
  const RunResult unreadable = WriteRun({"soon", "iops", {}, {}, {}});
  EXPECT_EQ(DefaultAnalysisOptions(unreadable).warmup, WarmupMode::kAuto);
  EXPECT_EQ(HeadlineMetric(unreadable), DefaultMetric(unreadable));
}

TEST(AnalysisSettingsTest, OverridesAreTheFieldsThatDiffer) {
  const AnalysisSettings campaign{"30m", "iops", {}, {}, {}};
  EXPECT_TRUE(AnalysisOverrides(campaign, {}).empty());
  EXPECT_TRUE(AnalysisOverrides(campaign, {"30m", {}, {}, {}, {}}).empty());
  EXPECT_TRUE(AnalysisOverrides({}, {"6s", {}, {}, {}, {}}).empty());
  const auto lines = AnalysisOverrides(campaign, {"6s", "iops", "60s", {}, {}});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "--warmup 6s (the campaign's [analysis] says warmup = \"30m\")");
}

TEST(AnalysisSettingsTest, StoredWithTheRunsConfig) {
  JobSpec spec;
  spec.analysis = {"30m", "iops", {}, "5m", {}};
  auto read = JobSpecFromJson(ToJson(spec));
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->analysis, spec.analysis);
  EXPECT_EQ(ToJson(spec)["analysis"], nlohmann::json({{"warmup", "30m"},
                                                      {"metric", "iops"},
                                                      {"min_segment", "5m"}}));
  // A run stored before [analysis] existed has none.
  nlohmann::json old = ToJson(JobSpec{});
  old.erase("analysis");
  auto before = JobSpecFromJson(old);
  ASSERT_TRUE(before.ok());
  EXPECT_TRUE(before->analysis.empty());
}

}  // namespace
}  // namespace flashmark
