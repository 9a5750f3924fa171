// Integration tests of analyze, compare and --until-steady through the
// binary, on runs it made itself (null engine: no device needed).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

TEST(Analyze, ReportsSteadyStateMedianWithIntervalAndRegimes) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--rate", "4000", "--time",
                          "6s", "--interval", "100ms", "-q", db})
                .exit_code,
            0);
  const Invocation text =
      RunFlashmark({"analyze", "1", db, "--warmup", "auto", "--round", "500ms",
                    "--metric", "iops"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("steady state (SNIA PTS: rounds of 0.5 s"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("data excursion"), std::string::npos);
  EXPECT_NE(text.out.find("95 % CI"), std::string::npos);

  const Invocation result = RunFlashmark(
      {"analyze", "1", db, "--warmup", "1s", "--metric", "iops", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["schema"], "flashmark.analysis");
  EXPECT_EQ(doc["warmup"]["mode"], "fixed");
  EXPECT_EQ(doc["window"]["count"], 50) << "60 intervals less 1 s of warm-up";
  const double median = doc["window"]["median"];
  EXPECT_NEAR(median, 4000, 200);
  EXPECT_LE(doc["window"]["median_ci"]["low"].get<double>(), median);
  EXPECT_GE(doc["window"]["median_ci"]["high"].get<double>(), median);
  EXPECT_GT(doc["latency"]["count"].get<uint64_t>(), 15000u);
  EXPECT_EQ(doc["series"]["p99_ns"].size(), 60u);
}

TEST(Analyze, BadArgumentsAreUsageErrors) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "1s", "-q", db})
                .exit_code,
            0);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"analyze", "7", db},
           {"analyze", "1", db, "--warmup", "soon"},
           {"analyze", "1", db, "--metric", "speed"},
           {"analyze", "1", db, "--gate", "five"},
           {"compare", "1", db},
           {"compare", "1", "1", db, "--by", "device"}}) {
    const Invocation result = RunFlashmark(args);
    EXPECT_EQ(result.exit_code, 2) << args[2] << ": " << result.err;
    EXPECT_EQ(result.err.rfind("error: ", 0), 0u) << result.err;
  }
}

TEST(Compare, TwoThreadsAgainstOneWithPrices) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  ASSERT_EQ(
      RunFlashmark({"run", "--engine", "null", "--rate", "2000", "--time", "3s",
                    "--interval", "100ms", "-q", "--tag", "device=single",
                    "--tag", "price=100", "--tag", "capacity=100G", db})
          .exit_code,
      0);
  ASSERT_EQ(
      RunFlashmark({"run", "--engine", "null", "--rate", "4000", "--time", "3s",
                    "--interval", "100ms", "-q", "--tag", "device=duo", "--tag",
                    "price=180", "--tag", "capacity=200G", db})
          .exit_code,
      0);
  const Invocation text =
      RunFlashmark({"compare", "1", "2", "--by", "device", db});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("duo ran 2.0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("the random-read throughput of single"),
            std::string::npos);
  const json doc = json::parse(
      RunFlashmark({"compare", "1", "2", "--by", "device", db, "--json"}).out);
  EXPECT_EQ(doc["baseline"], "single");
  const auto& duo = doc["units"][1];
  EXPECT_NEAR(duo["IOPS"]["ratio"].get<double>(), 2.0, 0.1);
  EXPECT_LE(duo["IOPS"]["ratio_low"].get<double>(),
            duo["IOPS"]["ratio"].get<double>());
  // capacity=200G as a vendor writes it: 200 * 10^9 bytes.
  EXPECT_NEAR(duo["price_per_gb"].get<double>(), 180 / 200.0, 1e-9);
}

TEST(UntilSteady, StopsOnceSteadyAndSaysSo) {
  const Invocation result = RunFlashmark(
      {"run", "--engine", "null", "--rate", "5000", "--until-steady",
       "--steady-round", "500ms", "--interval", "100ms", "--max-time", "30s",
       "--no-db", "-q", "--json", "-"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("steady state reached at 2.5 s"), std::string::npos)
      << result.err;
  const json doc = json::parse(result.out);
  EXPECT_LT(doc["summary"]["elapsed_seconds"].get<double>(), 5.0);
  EXPECT_EQ(doc["config"]["until_steady"], true);
}

TEST(UntilSteady, SaysWhenNotReachedAndRejectsTimeTogether) {
  const Invocation result = RunFlashmark(
      {"run", "--engine", "null", "--until-steady", "--steady-round", "1s",
       "--max-time", "2s", "--no-db", "-q"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("steady state not reached"), std::string::npos)
      << result.out;
  const Invocation both = RunFlashmark(
      {"run", "--engine", "null", "--until-steady", "--time", "5s", "--no-db"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--max-time"), std::string::npos);
}

// --min-time holds a run past SNIA's first window; bad values are refused.
TEST(UntilSteady, MinTimeRunsAtLeastThatLongAndIsRecorded) {
  const Invocation result = RunFlashmark(
      {"run", "--engine", "null", "--rate", "5000", "--until-steady",
       "--steady-round", "500ms", "--interval", "100ms", "--min-time", "4s",
       "--max-time", "30s", "--no-db", "-q", "--json", "-"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("going on: with --min-time 4 s"), std::string::npos)
      << result.err;
  const json doc = json::parse(result.out);
  EXPECT_GE(doc["summary"]["elapsed_seconds"].get<double>(), 4.0);
  // Stopped by the rule, before --max-time (a loaded machine makes the
  // rate-limited series noisier, and the headline steady later).
  EXPECT_LT(doc["summary"]["elapsed_seconds"].get<double>(), 29.0);
  EXPECT_EQ(doc["config"]["min_time_seconds"], 4.0);
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--min-time", "5s"},
        {"--until-steady", "--min-time", "5h", "--max-time", "1h"},
        {"--until-steady", "--min-time", "soon"}}) {
    std::vector<std::string> args = {"run", "--engine", "null", "--no-db"};
    args.insert(args.end(), bad.begin(), bad.end());
    const Invocation refused = RunFlashmark(args);
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_NE(refused.err.find("--min-time"), std::string::npos) << refused.err;
  }
}

}  // namespace
}  // namespace flashmark::testing

namespace flashmark::testing {
namespace {

TEST(Report, WritesHtmlMarkdownAndCsvAndFailsCleanly) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  for (int threads : {1, 2}) {
    ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--rate",
                            std::to_string(threads * 1000), "--time", "2s",
                            "--interval", "100ms", "-q", "--tag",
                            "threads=" + std::to_string(threads), db})
                  .exit_code,
              0);
  }
  const Invocation result = RunFlashmark(
      {"report", "1", "2", "--by", "threads", db, "--html", dir.File("r.html"),
       "--md", dir.File("r.md"), "--csv", dir.File("data")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string html = ReadFile(dir.File("r.html"));
  EXPECT_NE(html.find("id=\"report-data\""), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos) << "self-contained";
  EXPECT_EQ(html.find("<link "), std::string::npos) << "no stylesheet to fetch";
  const std::string md = ReadFile(dir.File("r.md"));
  EXPECT_NE(md.find("## By threads"), std::string::npos) << md;
  EXPECT_NE(md.find("![box plots](r-box.svg)"), std::string::npos);
  EXPECT_NE(ReadFile(dir.File("r-box.svg")).find("<svg"), std::string::npos);
  EXPECT_NE(ReadFile(dir.File("data/groups.csv")).find("threads,value,runs"),
            std::string::npos);
  EXPECT_NE(ReadFile(dir.File("data/timeseries-run1.csv")).find("t,value,iops"),
            std::string::npos);

  // No file: the key figures on the terminal.
  const Invocation terminal = RunFlashmark({"report", "1", db});
  EXPECT_EQ(terminal.exit_code, 0);
  EXPECT_NE(terminal.out.find("median"), std::string::npos);

  // Bad input: clear errors, exit 2, nothing half-written.
  const Invocation unknown =
      RunFlashmark({"report", "9", db, "--html", dir.File("x.html")});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.File("x.html")));
  const Invocation unwritable =
      RunFlashmark({"report", "1", db, "--html", "/nonexistent/dir/r.html"});
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_NE(
      unwritable.err.find("--html /nonexistent/dir/r.html: its directory"),
      std::string::npos)
      << unwritable.err;
  const Invocation no_tag = RunFlashmark({"report", "1", db, "--by", "device"});
  EXPECT_EQ(no_tag.exit_code, 2);
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos)
        << "left behind: " << entry.path();
  }
}

TEST(Report, RunWithoutFullIntervalsIsRefused) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  ASSERT_EQ(
      RunFlashmark({"run", "--engine", "null", "--io-limit", "1000", "-q", db})
          .exit_code,
      0);
  const Invocation result =
      RunFlashmark({"report", "1", db, "--html", dir.File("r.html")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no full interval"), std::string::npos)
      << result.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("r.html")));
}

}  // namespace
}  // namespace flashmark::testing
