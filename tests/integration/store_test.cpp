// Integration tests of the results store through the binary: runs are
// recorded as they go, survive kill -9 as interrupted, can be listed,
// shown, exported and deleted, and a failing store never stops a run.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "common/json_text.h"
#include "document/json_format.h"
#include "report/interval_csv.h"
#include "store/run_store.h"
#include "store/sqlite.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// The configured intervals a run's records cover: a record of a stretch
// the sampler could not sample (a busy machine) spans several.
uint64_t Spanned(const json& intervals) {
  uint64_t spanned = 0;
  for (const auto& interval : intervals) spanned += interval.value("spans", 1);
  return spanned;
}

TEST(Store, RunIsRecordedListedShownExportedAndDeleted) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const Invocation run = RunFlashmark(
      {"run", "--engine", "null", "--time", "2s", "--seed", "77", "--label",
       "baseline", "--tag", "device=nullA", "--tag", "price=100", db});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("run 1 stored in"), std::string::npos) << run.out;

  const Invocation listed = RunFlashmark({"list", db, "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const json list = json::parse(listed.out);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["id"], 1);
  EXPECT_EQ(list[0]["label"], "baseline");
  EXPECT_EQ(list[0]["status"], "ok");
  EXPECT_EQ(list[0]["tags"]["device"], "nullA");
  EXPECT_GT(list[0]["iops_median"].get<double>(), 1e5);

  EXPECT_EQ(
      json::parse(
          RunFlashmark({"list", db, "--json", "--tag", "device=other"}).out)
          .size(),
      0u);
  EXPECT_EQ(json::parse(
                RunFlashmark({"list", db, "--json", "--status", "failed"}).out)
                .size(),
            0u);
  const Invocation table = RunFlashmark({"list", db});
  EXPECT_NE(table.out.find("baseline device=nullA price=100"),
            std::string::npos)
      << table.out;

  const Invocation shown = RunFlashmark({"show", "1", db});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("summary over 2 intervals"), std::string::npos);
  // It ends with the command line that repeats the run exactly.
  const std::string reproduce =
      "flashmark run --mode rndrd --bs 16KiB --engine null --threads 1 --time "
      "2s --seed 77 --data random --size 2G --label baseline --tag "
      "device=nullA --tag price=100\n";
  ASSERT_GE(shown.out.size(), reproduce.size());
  EXPECT_EQ(shown.out.substr(shown.out.size() - reproduce.size()), reproduce)
      << shown.out;

  const Invocation csv = RunFlashmark({"export", "1", db, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("index,start_s,end_s,partial,read_ios"),
            std::string::npos);
  EXPECT_NE(csv.out.find(",lat_max_ns,spans,dev_read_bytes,"),
            std::string::npos);
  // Interval 1 runs from about 1 s to about 2 s: the instants its
  // snapshots were taken, a wake-up's jitter after the boundaries.
  const size_t second = csv.out.find("\n1,");
  ASSERT_NE(second, std::string::npos) << csv.out;
  double start = 0, end = 0;
  int partial = -1;
  ASSERT_EQ(std::sscanf(csv.out.c_str() + second, "\n1,%lf,%lf,%d,", &start,
                        &end, &partial),
            3)
      << csv.out;
  EXPECT_NEAR(start, 1.0, 0.25);
  EXPECT_NEAR(end, 2.0, 0.25);
  EXPECT_EQ(partial, 0);
  const Invocation exported =
      RunFlashmark({"export", "1", db, "--format", "json"});
  const json doc = json::parse(exported.out);
  EXPECT_EQ(doc["id"], 1);
  EXPECT_GE(doc["intervals"].size(), 2u);  // and the drain, when it did IO
  EXPECT_FALSE(doc["intervals"][1].contains("partial"));
  EXPECT_EQ(doc["config"]["seed"], 77);

  EXPECT_EQ(RunFlashmark({"delete", "1", db}).exit_code, 0);
  const Invocation gone = RunFlashmark({"show", "1", db});
  EXPECT_EQ(gone.exit_code, 2);
  EXPECT_NE(gone.err.find("no run 1 in"), std::string::npos) << gone.err;
}

// A long run's interval histograms would take gigabytes in memory: `show`
// reads none of them (its latency is the stored summary's), and `show
// --json` and every export stream them, one interval at a time, into the
// very text the whole run in memory gives.
TEST(Store, ShowReadsNoIntervalHistogramAndTheExportsStreamThem) {
  TempDir dir;
  const std::string path = dir.File("runs.db"), db = "--db=" + path;
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "3s", db,
                          "--interval", "500ms", "-q"})
                .exit_code,
            0);
  const Invocation csv = RunFlashmark({"export", "1", db, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const Invocation exported =
      RunFlashmark({"export", "1", db, "--format", "json"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const Invocation shown_json = RunFlashmark({"show", "1", db, "--json"});
  ASSERT_EQ(shown_json.exit_code, 0) << shown_json.err;
  {
    auto store = RunStore::OpenForReading(path);
    ASSERT_TRUE(store.ok());
    auto whole = store->LoadRun(1);
    ASSERT_TRUE(whole.ok());
    ASSERT_GE(whole->run.intervals.size(), 6u);
    std::ostringstream expected;
    WriteIntervalsCsv(whole->run, {}, expected);
    EXPECT_EQ(csv.out, expected.str());
    // The header row first, the run's figures after the rows; a run that
    // was not traced has the latency split's five columns empty.
    EXPECT_TRUE(csv.out.starts_with("index,start_s,")) << csv.out;
    const size_t second_line = csv.out.find('\n') + 1;
    const std::string first_row = csv.out.substr(
        second_line, csv.out.find('\n', second_line) - second_line);
    EXPECT_TRUE(first_row.starts_with("0,")) << first_row;
    EXPECT_TRUE(first_row.ends_with(",,,,,")) << first_row;
    EXPECT_NE(csv.out.find("\n# headline_median: "), std::string::npos);
    // The streamed document is the pretty-printed whole with each
    // interval on one line, byte for byte: its intervals those of the run
    // loaded with every histogram.
    std::string interval_lines;
    for (const IntervalSample& sample : whole->run.intervals) {
      interval_lines += interval_lines.empty() ? "\n  " : ",\n  ";
      interval_lines += JsonText(ToJson(sample));
    }
    for (const Invocation* read : {&exported, &shown_json}) {
      json doc = json::parse(read->out);
      ASSERT_FALSE(
          doc["intervals"][1]["latency"]["read"].value("c", json()).empty())
          << read->out.substr(0, 2000);
      doc["intervals"] = json::array();
      std::string document = JsonText(doc, 1) + "\n";
      constexpr std::string_view kIntervals = "\"intervals\": [";
      document.insert(document.find(kIntervals) + kIntervals.size(),
                      interval_lines + "\n ");
      EXPECT_EQ(read->out, document);
    }
  }
  const std::string latency = RunFlashmark({"show", "1", db}).out;
  ASSERT_NE(latency.find("  latency  p50 "), std::string::npos) << latency;

  // A histogram that cannot be decoded shows who reads it; what stdout
  // shows already is said to be incomplete, and -o's file stays as it was.
  auto raw = Database::Open(path, false);
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(
      raw->Execute("UPDATE intervals SET read_hist = x'ff' WHERE idx = 2")
          .ok());
  const Invocation shown = RunFlashmark({"show", "1", db});
  EXPECT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_EQ(shown.out, latency);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"show", "1", db, "--json"},
           {"export", "1", db, "--format", "json"},
           {"export", "1", db, "--format", "hdr"},
           {"export", "1", db, "--format", "clat_hist"},
           {"export", "1", db, "--format", "csv"}}) {
    const Invocation read = RunFlashmark(args);
    EXPECT_EQ(read.exit_code, 1) << args[0];
    EXPECT_NE(read.err.find("run 1 interval 2 in"), std::string::npos)
        << read.err;
    EXPECT_EQ(read.err.find("incomplete") != std::string::npos,
              !read.out.empty())
        << read.err;
  }
  EXPECT_NE(exported.out.find("\"intervals\": [\n  {"), std::string::npos);
  std::ofstream(dir.File("kept.json")) << "old export";
  const Invocation to_file = RunFlashmark(
      {"export", "1", db, "--format", "json", "-o", dir.File("kept.json")});
  EXPECT_EQ(to_file.exit_code, 1);
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(ReadFile(dir.File("kept.json")), "old export");
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos)
        << "a temporary was left: " << entry.path();
  }
}

TEST(Store, BadIdsFormatsAndMissingDatabasesAreUsageErrors) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("absent.db");
  const Invocation missing = RunFlashmark({"list", db});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no database at"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.File("absent.db")))
      << "reading commands never create a database";
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "1s", "-q",
                          "--db=" + dir.File("runs.db")})
                .exit_code,
            0);
  const std::string present = "--db=" + dir.File("runs.db");
  EXPECT_EQ(RunFlashmark({"show", "abc", present}).exit_code, 2);
  EXPECT_EQ(RunFlashmark({"show", "99", present}).exit_code, 2);
  EXPECT_EQ(RunFlashmark({"export", "1", present, "--format", "xml"}).exit_code,
            2);
  const Invocation unwritable =
      RunFlashmark({"export", "1", present, "-o", "/nonexistent/dir/x.csv"});
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_EQ(RunFlashmark({"list", present, "--since", "yesterday"}).exit_code,
            2);
}

TEST(Store, CorruptDatabaseIsAClearErrorBeforeAnythingRuns) {
  TempDir dir;
  const std::string path = dir.File("junk.db");
  std::ofstream(path) << std::string(4096, 'x');
  const Invocation result =
      RunFlashmark({"run", "--engine", "null", "--time", "1s", "--db=" + path});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.err.find("not a database"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("--no-db"), std::string::npos);
  EXPECT_EQ(result.out.find("[    1s]"), std::string::npos);
}

TEST(Store, KillNineLeavesAnInterruptedRunWithItsIntervals) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const int pid =
      StartFlashmark({"run", "--engine", "null", "--time", "60s", db},
                     dir.File("out"), dir.File("err"));
  // Until the store holds two intervals of the run (read as `export` does).
  const auto stored_intervals = [&db] {
    const Invocation exported =
        RunFlashmark({"export", "1", db, "--format", "json"});
    if (exported.exit_code != 0) return size_t{0};
    const json doc =
        json::parse(exported.out, nullptr, /*allow_exceptions=*/false);
    return doc.is_discarded() ? size_t{0} : doc["intervals"].size();
  };
  ASSERT_TRUE(WaitFor([&] { return stored_intervals() >= 2; }, 30))
      << ReadFile(dir.File("err"));
  kill(pid, SIGKILL);
  WaitFlashmark(pid);
  const Invocation listed = RunFlashmark({"list", db, "--json"});
  const json list = json::parse(listed.out);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["status"], "interrupted");
  const json doc =
      json::parse(RunFlashmark({"export", "1", db, "--format", "json"}).out);
  EXPECT_GE(doc["intervals"].size(), 2u);
  EXPECT_EQ(doc["status"], "interrupted");
}

TEST(Store, ConcurrentRunsIntoOneDatabaseBothSucceed) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const std::vector<std::string> args = {"run",    "--engine", "null",
                                         "--time", "3s",       "--interval",
                                         "50ms",   "-q",       db};
  const int a = StartFlashmark(args, dir.File("a.out"), dir.File("a.err"));
  const int b = StartFlashmark(args, dir.File("b.out"), dir.File("b.err"));
  EXPECT_EQ(WaitFlashmark(a), 0) << ReadFile(dir.File("a.err"));
  EXPECT_EQ(WaitFlashmark(b), 0) << ReadFile(dir.File("b.err"));
  EXPECT_EQ(ReadFile(dir.File("a.err")), "");
  EXPECT_EQ(ReadFile(dir.File("b.err")), "");
  const json list = json::parse(RunFlashmark({"list", db, "--json"}).out);
  ASSERT_EQ(list.size(), 2u);
  for (int id : {1, 2}) {
    const json doc = json::parse(
        RunFlashmark({"export", std::to_string(id), db, "--format", "json"})
            .out);
    EXPECT_EQ(doc["status"], "ok");
    EXPECT_GE(Spanned(doc["intervals"]), 60u);
  }
}

TEST(Store, FullDiskUnderTheDatabaseNeverStopsTheRun) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string mount_point = dir.File("tiny");
  std::filesystem::create_directory(mount_point);
  TmpfsMount tmpfs(mount_point, "160k");
  ASSERT_TRUE(tmpfs.ok());
  const std::string out = dir.File("run.json");
  const Invocation result = RunFlashmark(
      {"run", "--engine", "null", "--time", "2s", "--interval", "10ms", "-q",
       "--json", out, "--db=" + mount_point + "/runs.db"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("warning: storing the run failed"),
            std::string::npos)
      << result.err;
  const json doc = json::parse(ReadFile(out));
  EXPECT_EQ(doc["status"], "ok");
  EXPECT_GE(Spanned(doc["intervals"]), 190u)
      << "every interval kept in the JSON";
}

}  // namespace
}  // namespace flashmark::testing
