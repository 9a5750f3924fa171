// A campaign's [analysis] table gives its runs one headline in every
// command (issue 44: the sweep table, list and report disagreed), a
// command's own option that replaces it says so, and the campaign's file
// is kept in the store so that a published database reproduces.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

const char* const kCampaign = R"(# a campaign with its analysis chosen once
[campaign]
name = "chosen"
[workload]
engine = "null"
mode = "rndwr"
time = "3s"
interval = "100ms"
[matrix]
threads = [1]
[analysis]
warmup = "1s"
metric = "iops"
[[reset]]
step = "idle"
seconds = 0.2
)";

TEST(CampaignAnalysis, EveryCommandPrintsTheCampaignsHeadline) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  const std::string file = dir.File("chosen.toml");
  WriteText(file, kCampaign);
  const Invocation plan = RunFlashmark({"sweep", file, "--dry-run"});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("[analysis] warmup 1s, metric iops: every "
                          "command's headline"),
            std::string::npos)
      << plan.out;

  const Invocation sweep = RunFlashmark({"sweep", file, "--db", db, "-q"});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  // The sweep table: IOPS, after the campaign's warm-up.
  EXPECT_NE(sweep.out.find(" IOPS "), std::string::npos) << sweep.out;
  EXPECT_NE(sweep.out.find("headline: after a warm-up of 1 s"),
            std::string::npos)
      << sweep.out;

  // list, analyze and analyze --warmup: the same figure where they agree.
  const Invocation list = RunFlashmark({"list", "--db", db, "--json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto listed = nlohmann::json::parse(list.out);
  ASSERT_EQ(listed.size(), 1u);
  const auto& headline = listed[0]["headline"];
  EXPECT_EQ(headline["metric"], "iops");
  EXPECT_GE(headline["start_seconds"].get<double>(), 1.0);

  const Invocation analyze =
      RunFlashmark({"analyze", "1", "--db", db, "--json"});
  ASSERT_EQ(analyze.exit_code, 0) << analyze.err;
  const auto analysis = nlohmann::json::parse(analyze.out);
  EXPECT_EQ(analysis["metric"]["name"], "iops");
  EXPECT_EQ(analysis["headline"]["median"], headline["median"]);
  EXPECT_EQ(analysis["overrides"], nlohmann::json::array());

  const Invocation replaced =
      RunFlashmark({"analyze", "1", "--db", db, "--warmup", "none"});
  ASSERT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(replaced.out.rfind("note: figures by --warmup none (the "
                               "campaign's [analysis] says warmup = \"1s\")\n",
                               0),
            0u)
      << replaced.out;
  const Invocation report =
      RunFlashmark({"report", "--campaign", "1", "--db", db, "--warmup", "2s"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("note: figures by --warmup 2s"), std::string::npos)
      << report.out;

  // The campaign's file comes back byte for byte; show names it and the
  // cell's steps in its reproduce lines.
  const Invocation text = RunFlashmark({"show", "--campaign", "1", "--db", db});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, kCampaign);
  const Invocation show = RunFlashmark({"show", "1", "--db", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("reproduce with\n  # campaign 1, cell 1: its reset "
                          "steps, then its run\n  sleep 0.2\n"
                          "  flashmark run --mode rndwr"),
            std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("flashmark show --campaign 1 > campaign.toml && "
                          "flashmark sweep campaign.toml"),
            std::string::npos);

  // Bad input: an unknown campaign, a run and a campaign at once, neither.
  const Invocation unknown =
      RunFlashmark({"show", "--campaign", "7", "--db", db});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  const Invocation both =
      RunFlashmark({"show", "1", "--campaign", "1", "--db", db});
  EXPECT_EQ(both.exit_code, 2) << both.err;
  const Invocation neither = RunFlashmark({"show", "--db", db});
  EXPECT_EQ(neither.exit_code, 2) << neither.err;
  EXPECT_NE(neither.err.find("which run?"), std::string::npos) << neither.err;
}

}  // namespace
}  // namespace flashmark::testing
