// Integration tests of `flashmark import` through the binary: fio and
// sysbench results (the committed fixtures, and fresh ones when the tools
// are installed) are stored and then listed, shown, analysed, compared and
// reported like native runs; a file imported twice is refused unless
// --again; bad files exit 2 naming file and line and store nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

json ListRuns(const std::string& db) {
  const Invocation listed = RunFlashmark({"list", db, "--json"});
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  return listed.exit_code == 0 ? json::parse(listed.out) : json::array();
}

TEST(Import, ImportedRunsBehaveLikeNativeOnes) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const Invocation sysbench = RunFlashmark(
      {"import", "sysbench", ImportFixture("sysbench-rndwr-async.txt"),
       ImportFixture("sysbench-rndrd-8threads.txt"),
       ImportFixture("sysbench-rndrw-summary.txt"), "--tag", "device=vda", db});
  ASSERT_EQ(sysbench.exit_code, 0) << sysbench.err;
  EXPECT_NE(
      sysbench.out.find(
          "run 1 \"sysbench-rndwr-async\" (sysbench 1.0.20, 6 intervals)"),
      std::string::npos)
      << sysbench.out;
  const Invocation fio = RunFlashmark(
      {"import", "fio", ImportFixture("fio-randrw-logs/randrw.json"), "--logs",
       ImportFixture("fio-randrw-logs/randrw"), "--label", "randrw-logs", db});
  ASSERT_EQ(fio.exit_code, 0) << fio.err;
  const Invocation plus =
      RunFlashmark({"import", "fio", ImportFixture("fio-jsonplus-2jobs.json"),
                    ImportFixture("fio-group-ss.json"), db});
  ASSERT_EQ(plus.exit_code, 0) << plus.err;

  const json runs = ListRuns(db);
  ASSERT_EQ(runs.size(), 7u);
  EXPECT_EQ(runs[0]["source"], "sysbench");
  EXPECT_EQ(runs[0]["tags"]["device"], "vda");
  EXPECT_EQ(runs[0]["status"], "ok");
  EXPECT_NEAR(runs[0]["write_mibs_median"].get<double>(), 227.81, 1e-6);
  EXPECT_EQ(runs[3]["source"], "fio");
  EXPECT_EQ(runs[3]["label"], "randrw-logs");
  EXPECT_EQ(runs[4]["label"], "randread.1");
  EXPECT_EQ(runs[6]["label"], "randwrite");
  const Invocation table = RunFlashmark({"list", db});
  EXPECT_NE(table.out.find("rndwr 16KiB libaio QD128x1"), std::string::npos)
      << table.out;

  const Invocation shown = RunFlashmark({"show", "1", db});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("imported from sysbench"), std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("reported by sysbench 1.0.20"), std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("latency p95 0.06 ms"), std::string::npos)
      << shown.out;
  EXPECT_EQ(shown.out.find("latency  p50"), std::string::npos)
      << shown.out;  // none invented
  const Invocation fio_shown = RunFlashmark({"show", "4", db});
  EXPECT_NE(fio_shown.out.find("command  fio --name=randrw"), std::string::npos)
      << fio_shown.out;
  EXPECT_NE(fio_shown.out.find("read lat p50"), std::string::npos)
      << fio_shown.out;

  const json doc =
      json::parse(RunFlashmark({"export", "4", db, "--format", "json"}).out);
  EXPECT_EQ(doc["source"], "fio");
  EXPECT_EQ(doc["imported"]["tool"], "fio");
  EXPECT_EQ(doc["imported"]["version"], "fio-3.33");
  EXPECT_EQ(doc["intervals"].size(), 4u);

  for (const char* id : {"1", "2", "3", "4", "5", "7"}) {
    const Invocation analysed =
        RunFlashmark({"analyze", id, db, "--warmup", "auto"});
    EXPECT_EQ(analysed.exit_code, 0) << id << ": " << analysed.err;
    EXPECT_NE(analysed.out.find("median"), std::string::npos) << analysed.out;
  }
  const Invocation no_latency = RunFlashmark({"analyze", "1", db});
  EXPECT_NE(no_latency.out.find("latency none recorded"), std::string::npos)
      << no_latency.out;
  // sysbench's own p95 per interval is the metric (no histogram invented:
  // p50 was never printed).
  const Invocation p95 = RunFlashmark({"analyze", "1", db, "--metric", "p95"});
  EXPECT_EQ(p95.exit_code, 0) << p95.err;
  const Invocation p50 = RunFlashmark({"analyze", "1", db, "--metric", "p50"});
  EXPECT_EQ(p50.exit_code, 2) << p50.out;
  EXPECT_NE(p50.err.find("no latency histograms"), std::string::npos)
      << p50.err;
  const Invocation p99 =
      RunFlashmark({"analyze", "4", db, "--metric", "p99", "--json"});
  ASSERT_EQ(p99.exit_code, 0) << p99.err;
  EXPECT_GT(json::parse(p99.out)["window"]["median"].get<double>(), 0);

  const Invocation compared = RunFlashmark({"compare", "5", "6", db});
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
  EXPECT_NE(compared.out.find("randread.2"), std::string::npos) << compared.out;
  const Invocation reported =
      RunFlashmark({"report", "1", "2", "4", db, "--html", dir.File("r.html"),
                    "--md", dir.File("r.md")});
  EXPECT_EQ(reported.exit_code, 0) << reported.err;
  EXPECT_TRUE(std::filesystem::exists(dir.File("r.html")));
  const Invocation figures = RunFlashmark({"report", "1", "4", db});
  EXPECT_EQ(figures.exit_code, 0) << figures.err;
  EXPECT_NE(figures.out.find("p99 -"), std::string::npos) << figures.out;
}

// sysbench prints a percentile per interval (p95 by default): that is the
// response time a study of sysbench runs compares across thread counts,
// analysed and reported as a metric without pretending a histogram exists.
TEST(Import, SysbenchsPercentileIsAMetric) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  // The same run as if made with 4 threads (only the header differs).
  std::string four = ReadFile(ImportFixture("sysbench-rndrd-8threads.txt"));
  const std::string eight = "Number of threads: 8";
  four.replace(four.find(eight), eight.size(), "Number of threads: 4");
  WriteText(dir.File("sysbench-rndrd-4threads.txt"), four);
  ASSERT_EQ(RunFlashmark({"import", "sysbench",
                          ImportFixture("sysbench-rndrd-8threads.txt"),
                          dir.File("sysbench-rndrd-4threads.txt"), db})
                .exit_code,
            0);
  // Its intervals printed 0.006 0.006 0.007 0.007 0.007 ms: the first full
  // intervals' median is the tool's own figure.
  const Invocation analyzed =
      RunFlashmark({"analyze", "1", db, "--metric", "p95", "--json"});
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
  const json analysis = json::parse(analyzed.out);
  EXPECT_NEAR(analysis["headline"]["median"].get<double>(), 7000, 1e-6)
      << analyzed.out;
  // No other percentile was printed, and none is invented.
  const Invocation p99 = RunFlashmark({"analyze", "1", db, "--metric", "p99"});
  EXPECT_EQ(p99.exit_code, 2);
  EXPECT_NE(p99.err.find("sysbench printed its p95 per interval: use "
                         "--metric p95"),
            std::string::npos)
      << p99.err;
  // Response time per thread count: a group each, its median the p95's.
  const Invocation report = RunFlashmark(
      {"report", "1", "2", db, "--metric", "p95", "--by", "threads"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("p95 latency median 7.00 us"), std::string::npos)
      << report.out;
  EXPECT_NE(report.out.find("no latency distribution"), std::string::npos);
  ASSERT_EQ(RunFlashmark({"report", "1", "2", db, "--metric", "p95", "--by",
                          "threads", "--csv", dir.File("csv")})
                .exit_code,
            0);
  const std::string groups = ReadFile(dir.File("csv/groups.csv"));
  EXPECT_NE(groups.find("\"4\",4.0,1,0.006,0.007,"), std::string::npos)
      << groups;
  EXPECT_NE(groups.find("\"8\",8.0,1,0.006,0.007,"), std::string::npos)
      << groups;
  const std::string series = ReadFile(dir.File("csv/timeseries-run1.csv"));
  // (the second interval, at its end: 2 s)
  EXPECT_NE(series.find("\n2.0,0.006,401852.0,0.006,"), std::string::npos)
      << series;
}

TEST(Import, TheSameFileTwiceIsRefusedUnlessAgain) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const std::string file = ImportFixture("fio-jsonplus-2jobs.json");
  ASSERT_EQ(RunFlashmark({"import", "fio", file, db}).exit_code, 0);
  const Invocation twice = RunFlashmark({"import", "fio", file, db});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("was imported before (the same SHA-256): runs 1, 2"),
            std::string::npos)
      << twice.err;
  EXPECT_NE(twice.err.find("--again"), std::string::npos) << twice.err;
  EXPECT_EQ(ListRuns(db).size(), 2u);
  // A copy under another name is the same file.
  std::filesystem::copy_file(file, dir.File("copy.json"));
  EXPECT_EQ(
      RunFlashmark({"import", "fio", dir.File("copy.json"), db}).exit_code, 2);
  const Invocation again = RunFlashmark({"import", "fio", file, db, "--again"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(ListRuns(db).size(), 4u);
}

TEST(Import, BadFilesExit2NamingFileAndLineAndStoreNothing) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  std::string text = ReadFile(ImportFixture("sysbench-rndwr-async.txt"));
  const auto write = [&dir](const std::string& name,
                            const std::string& content) {
    std::ofstream(dir.File(name)) << content;
    return dir.File(name);
  };
  const std::string truncated =
      write("cut.txt", text.substr(0, text.find("[ 3s ]") + 20));
  std::string newer_text = text;
  newer_text.replace(0, 15, "sysbench 1.1.0");
  const std::string newer = write("newer.txt", newer_text);
  std::string json_text = ReadFile(ImportFixture("fio-group-ss.json"));
  json_text.replace(json_text.find("\"total_ios\""), 11,
                    "\"total_ios\" : \"x\", \"y\"");
  const std::string garbled = write("garbled.json", json_text);

  const Invocation cut = RunFlashmark({"import", "sysbench", truncated, db});
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_NE(cut.err.find("error: " + truncated +
                         ":25: not a complete fileio interval line"),
            std::string::npos)
      << cut.err;
  const Invocation version = RunFlashmark({"import", "sysbench", newer, db});
  EXPECT_EQ(version.exit_code, 2);
  EXPECT_NE(version.err.find(newer + ":1: sysbench 1.1.0 is not a version"),
            std::string::npos)
      << version.err;
  const Invocation bad_json = RunFlashmark({"import", "fio", garbled, db});
  EXPECT_EQ(bad_json.exit_code, 2);
  EXPECT_NE(bad_json.err.find(garbled + ": JSON path /jobs/0/read/total_ios"),
            std::string::npos)
      << bad_json.err;
  const Invocation missing =
      RunFlashmark({"import", "fio", dir.File("absent.json"), db});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.File("runs.db")))
      << "bad input creates no database";

  // A bad file among good ones: the good ones are stored, the status is 2.
  const Invocation mixed =
      RunFlashmark({"import", "sysbench", truncated,
                    ImportFixture("sysbench-rndrw-summary.txt"), db});
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_EQ(ListRuns(db).size(), 1u);
}

TEST(Import, FreshFioAndSysbenchOutput) {
  if (RunTool({"fio", "--version"}) != 0 ||
      RunTool({"sysbench", "--version"}) != 0) {
    GTEST_SKIP()
        << "fio and sysbench are not both installed (apt-get install fio "
           "sysbench); the committed fixtures are imported by the other tests";
  }
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const std::string json_path = dir.File("fresh.json");
  std::string output;
  ASSERT_EQ(
      RunTool({"fio", "--name=fresh", "--directory=" + dir.path(),
               "--rw=randwrite", "--bs=4k", "--size=4M", "--time_based",
               "--runtime=2", "--write_bw_log=" + dir.File("fresh"),
               "--write_iops_log=" + dir.File("fresh"), "--log_avg_msec=500",
               "--output-format=json+", "--output=" + json_path},
              &output),
      0)
      << output;
  const Invocation fio = RunFlashmark(
      {"import", "fio", json_path, "--logs", dir.File("fresh"), db});
  ASSERT_EQ(fio.exit_code, 0) << fio.err;
  EXPECT_NE(fio.out.find("(fio-3."), std::string::npos) << fio.out;

  ASSERT_EQ(RunTool({"env", "-C", dir.path(), "sysbench", "fileio",
                     "--file-num=2", "--file-total-size=8M", "prepare"}),
            0);
  ASSERT_EQ(
      RunTool({"env", "-C", dir.path(), "sysbench", "fileio", "--file-num=2",
               "--file-total-size=8M", "--file-test-mode=rndrw", "--time=2",
               "--report-interval=1", "run"},
              &output),
      0)
      << output;
  std::ofstream(dir.File("fresh.txt")) << output;
  const Invocation sysbench =
      RunFlashmark({"import", "sysbench", dir.File("fresh.txt"), db});
  ASSERT_EQ(sysbench.exit_code, 0) << sysbench.err;
  const json runs = ListRuns(db);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_GT(runs[0]["write_mibs_median"].get<double>(), 0);
  EXPECT_GT(runs[1]["read_mibs_median"].get<double>(), 0);
  EXPECT_EQ(RunFlashmark({"analyze", "1", db}).exit_code, 0);
  EXPECT_EQ(RunFlashmark({"analyze", "2", db}).exit_code, 0);
}

}  // namespace
}  // namespace flashmark::testing
