// Application profiles (issue 40), run by the binary on real files (and on
// a loop device as root): each profile's IOs by kind in its stated ratios
// (the ratios from the profile itself, config/app_profiles.cpp), its syncs
// per commit, one commit latency per commit, the headline on commit p99
// with p99.9 and read p99 beside it in `run`, `show`, `analyze` and their
// --json, and compare/report --by profile across two profiles; bad input
// (an unknown profile, an option that contradicts one) refused with exit
// status 2 and nothing stored.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"
#include "config/app_profiles.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// Checks a run document (`run --json`, `show --json`) of `profile`
// against the profile's stated mix.
void CheckProfileRun(const json& doc, const AppProfile& profile) {
  SCOPED_TRACE(profile.name);
  const json& summary = doc["summary"];
  const double commits = summary["commit_latency"]["count"].get<double>();
  ASSERT_GT(commits, 20) << "a few seconds of commits";
  // The commit histogram: one entry per commit, interval by interval.
  double in_intervals = 0;
  for (const json& interval : doc["intervals"]) {
    if (interval["latency"].contains("commit")) {
      for (const json& count : interval["latency"]["commit"]["c"]) {
        in_intervals += count.get<double>();  // bucket counts
      }
    }
  }
  if (!doc["intervals"].empty()) {
    EXPECT_EQ(in_intervals, commits);
  }
  // IOs by kind and syncs in the stated ratios: off by at most one
  // batch of each step (and one of each sync) per thread, where it
  // stopped.
  const ProfileRates rates = PerCommit(profile);
  double batch = 0, sync_steps = 0;
  for (const ProfileStep& step : profile.steps) {
    batch += step.count;
    sync_steps += step.sync_after ? 1 : 0;
  }
  const double threads = doc["config"]["threads"].get<double>();
  EXPECT_NEAR(summary["read"]["ios"].get<double>(), rates.reads * commits,
              threads * batch);
  EXPECT_NEAR(summary["write"]["ios"].get<double>(), rates.writes * commits,
              threads * batch);
  EXPECT_NEAR(summary["fsyncs"].get<double>(), rates.syncs * commits,
              threads * sync_steps)
      << "one sync per commit, plus the background writes' own";
  EXPECT_NEAR(summary["read"]["bytes"].get<double>(),
              rates.read_bytes * commits, threads * batch * 1048576);
  EXPECT_GT(summary["commit_latency"]["p99.9_ns"].get<double>(), 0);
  EXPECT_GE(summary["commit_latency"]["p99.9_ns"].get<double>(),
            summary["commit_latency"]["p99_ns"].get<double>());
  EXPECT_EQ(doc["config"]["profile"], profile.name);
}

class Profiles : public ::testing::Test {
 protected:
  TempDir dir_;
  std::string db_ = "--db=" + dir_.File("runs.db");

  json Run(const std::string& profile, const std::string& target,
           const std::vector<std::string>& more = {}) {
    const std::string out = dir_.File(profile + ".json");
    std::vector<std::string> args = {
        "run", target,       "--profile", profile, "--time", "3s", "--size",
        "48M", "--interval", "500ms",     db_,     "--json", out};
    args.insert(args.end(), more.begin(), more.end());
    const Invocation run = RunFlashmark(args, 120);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    // The live lines and the summary speak of commits.
    EXPECT_NE(run.out.find("commit p99"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("read p99"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("profile " + profile), std::string::npos) << run.out;
    return json::parse(ReadFile(out));
  }
};

TEST_F(Profiles, EachRunsItsStatedMixOnAFileSet) {
  int id = 0;
  for (const AppProfile& profile : BuiltInProfiles()) {
    const std::string target = dir_.File(profile.name);
    std::filesystem::create_directory(target);
    const json doc = Run(profile.name, target);
    ++id;
    CheckProfileRun(doc, profile);
    EXPECT_EQ(doc["config"]["file_num"], profile.regions.size())
        << "one file per region";
    EXPECT_EQ(DirectoryEntries(target), 0u) << "the file set is removed";

    // show: the headline on commit p99, p99.9 and read p99 beside it.
    const Invocation show = RunFlashmark({"show", std::to_string(id), db_});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_NE(show.out.find("commit p99 latency"), std::string::npos)
        << show.out;
    EXPECT_NE(show.out.find(profile.name + ": commit p99"), std::string::npos)
        << show.out;
    EXPECT_NE(show.out.find("p99.9"), std::string::npos);
    const Invocation show_json =
        RunFlashmark({"show", std::to_string(id), db_, "--json"});
    ASSERT_EQ(show_json.exit_code, 0) << show_json.err;
    const json stored = json::parse(show_json.out);
    CheckProfileRun(stored, profile);
    EXPECT_EQ(stored["headline"]["metric"], "commit_p99");
    EXPECT_EQ(stored["headline"]["unit"], "ns");
    EXPECT_EQ(stored["profile"]["name"], profile.name);
    EXPECT_GT(stored["profile"]["read_p99_ns"].get<double>(), 0);
    EXPECT_NEAR(stored["profile"]["commit_p99_ns"].get<double>(),
                doc["summary"]["commit_latency"]["p99_ns"].get<double>(), 1);

    // analyze: the same headline, in text and JSON.
    const Invocation analyze =
        RunFlashmark({"analyze", std::to_string(id), db_});
    ASSERT_EQ(analyze.exit_code, 0) << analyze.err;
    EXPECT_NE(analyze.out.find("commit p99 latency"), std::string::npos)
        << analyze.out;
    EXPECT_NE(analyze.out.find("read p99"), std::string::npos);
    const Invocation analyzed =
        RunFlashmark({"analyze", std::to_string(id), db_, "--json"});
    ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
    const json analysis = json::parse(analyzed.out);
    EXPECT_EQ(analysis["metric"]["name"], "commit_p99");
    EXPECT_EQ(analysis["headline"]["metric"], "commit_p99");
    EXPECT_GT(analysis["headline"]["median"].get<double>(), 0);
    EXPECT_GT(analysis["profile"]["commit_p99.9_ns"].get<double>(), 0);
    const Invocation p999 = RunFlashmark(
        {"analyze", std::to_string(id), db_, "--metric", "commit_p99.9"});
    EXPECT_EQ(p999.exit_code, 0) << p999.err;
  }

  // compare and report across two profiles, grouped by profile.
  const Invocation compare =
      RunFlashmark({"compare", "1", "2", db_, "--by", "profile"});
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_NE(compare.out.find("innodb"), std::string::npos) << compare.out;
  EXPECT_NE(compare.out.find("rocksdb"), std::string::npos) << compare.out;
  EXPECT_NE(compare.out.find("had"), std::string::npos) << compare.out;
  EXPECT_NE(compare.out.find("the commit p99 latency of innodb"),
            std::string::npos)
      << compare.out;
  const Invocation report =
      RunFlashmark({"report", "1", "2", "3", db_, "--by", "profile", "--html",
                    dir_.File("r.html")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string html = ReadFile(dir_.File("r.html"));
  EXPECT_NE(html.find("postgres-wal"), std::string::npos);
}

TEST_F(Profiles, ACampaignSweepsProfilesLikeAnyOption) {
  WriteText(dir_.File("profiles.toml"),
            "[campaign]\nname = \"profiles\"\n[workload]\nengine = "
            "\"null\"\nsize = \"256M\"\ntime = \"2s\"\ninterval = "
            "\"500ms\"\n[matrix]\nprofile = [\"innodb\", \"rocksdb\"]\n");
  const Invocation plan =
      RunFlashmark({"sweep", dir_.File("profiles.toml"), "--dry-run", db_});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("profile=innodb"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("profile rocksdb ("), std::string::npos) << plan.out;
  const Invocation sweep =
      RunFlashmark({"sweep", dir_.File("profiles.toml"), db_}, 120);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  EXPECT_NE(sweep.out.find("commit p99"), std::string::npos) << sweep.out;
  const Invocation compare =
      RunFlashmark({"compare", "1", "2", db_, "--by", "profile", "--json"});
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  const json doc = json::parse(compare.out);
  ASSERT_EQ(doc["units"].size(), 2u);
  EXPECT_EQ(doc["units"][0]["name"], "innodb");
  EXPECT_EQ(doc["units"][1]["name"], "rocksdb");
  // The headline compared is the commit latency, lower being better.
  EXPECT_TRUE(doc["units"][1].contains("commit p99 latency"));
  EXPECT_FALSE(doc["units"][1].contains("throughput"));
  const Invocation report = RunFlashmark(
      {"report", "1", "2", db_, "--by", "profile", "--md", dir_.File("r.md")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string md = ReadFile(dir_.File("r.md"));
  EXPECT_NE(md.find("innodb"), std::string::npos);
  EXPECT_NE(md.find("rocksdb"), std::string::npos);
  // A typo in the axis is caught before anything runs.
  WriteText(dir_.File("typo.toml"),
            "[workload]\nengine = \"null\"\n[matrix]\nprofile = "
            "[\"innodb\", \"rocksbd\"]\n");
  const Invocation typo =
      RunFlashmark({"sweep", dir_.File("typo.toml"), "--dry-run", db_});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("rocksbd"), std::string::npos) << typo.err;
}

TEST_F(Profiles, InnodbOnALoopDevice) {
  FLASHMARK_REQUIRE_ROOT();
  LoopDevice loop(dir_.File("loop.img"), 128 << 20);
  ASSERT_TRUE(loop.ok());
  const AppProfile& innodb = BuiltInProfiles()[0];
  const json doc = Run(innodb.name, loop.device(),
                       {"--direct", "--allow-destroy=" + loop.device()});
  CheckProfileRun(doc, innodb);
}

TEST_F(Profiles, BadInputIsRefusedWithExitTwoAndNothingStored) {
  const Invocation unknown = RunFlashmark(
      {"run", dir_.File("t"), "--profile", "innodbb", "--time", "1s", db_});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown profile \"innodbb\""), std::string::npos)
      << unknown.err;
  EXPECT_NE(unknown.err.find(ProfileNames()), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("did you mean --profile innodb"),
            std::string::npos)
      << unknown.err;
  const Invocation mode =
      RunFlashmark({"run", dir_.File("t"), "--profile", "rocksdb", "--mode",
                    "rndwr", "--time", "1s", db_});
  EXPECT_EQ(mode.exit_code, 2);
  EXPECT_NE(mode.err.find("--mode contradicts --profile rocksdb"),
            std::string::npos)
      << mode.err;
  EXPECT_NE(mode.err.find("drop --mode"), std::string::npos) << mode.err;
  const Invocation list = RunFlashmark({"list", db_});
  EXPECT_EQ(list.out.find("profile"), std::string::npos)
      << "nothing stored: " << list.out;
  EXPECT_EQ(DirectoryEntries(dir_.path()), 0u) << "no file set, no database";
}

}  // namespace
}  // namespace flashmark::testing
