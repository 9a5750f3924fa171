// Hostile inputs through the binary (issue 11, findings 14, 15, 17, 19, 20):
// a sysbench file with a 0 s report interval, analyses that must end on
// SIGINT, bytes that are not UTF-8 in labels, tags, paths and imported
// files, repeating options next to positionals, and labels written to
// catch a Markdown reader, a spreadsheet or a terminal.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "store/run_store.h"
#include "store/sqlite.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// `text` with the first `from` replaced by `to`.
std::string Replaced(std::string text, const std::string& from,
                     const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Whether process `pid` blocks SIGINT and SIGTERM yet (its main thread's
// SigBlk in /proc): before main() blocks them, either signal ends it by
// the default action, as it would any program; a sanitizer build can take
// a few hundred ms to get there.
bool BlocksInterrupts(int pid) {
  std::ifstream status(fmt::format("/proc/{}/status", pid));
  const uint64_t wanted = (1u << (SIGINT - 1)) | (1u << (SIGTERM - 1));
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("SigBlk:", 0) == 0) {
      return (std::stoull(line.substr(7), nullptr, 16) & wanted) == wanted;
    }
  }
  return false;
}

// A stored write run of `count` intervals of `sample_ns` whose MiB/s
// wander (a sawtooth plus a step), its spec saying `interval_ns`, written
// straight into the database: a million rows take one INSERT instead of a
// million runs' worth of time.
int64_t StoreRun(const std::string& db_path, int64_t interval_ns,
                 int64_t sample_ns, int64_t count,
                 const std::string& label = "synthetic") {
  auto store = RunStore::Open(db_path);
  EXPECT_TRUE(store.ok()) << store.error().message;
  if (!store.ok()) return 0;
  RunResult run;
  run.spec.mode = IoMode::kRndWr;
  run.spec.interval = std::chrono::nanoseconds(interval_ns);
  run.spec.targets = {"/synthetic"};
  run.command_line = "hostile_input_test";
  auto id = store->BeginRun(run, {label, {}, "flashmark", ""});
  EXPECT_TRUE(id.ok());
  if (!id.ok()) return 0;
  IntervalSample first;
  first.end_ns = static_cast<uint64_t>(sample_ns);
  first.write = {1000, 1000 * 4096};
  EXPECT_TRUE(store->AppendInterval(*id, first).ok());
  auto raw = Database::Open(db_path, false);
  EXPECT_TRUE(raw.ok());
  if (!raw.ok()) return 0;
  const Status filled = raw->Execute(fmt::format(
      "WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq "
      "WHERE i + 1 < {count}) "
      "INSERT INTO intervals (run_id, idx, start_ns, end_ns, partial, "
      "read_ios, read_bytes, write_ios, write_bytes, fsyncs, errors, "
      "read_hist, write_hist, schedule_hist) "
      "SELECT {id}, i, i * {ns}, (i + 1) * {ns}, 0, 0, 0, w, w * 4096, 0, 0, "
      "h, h, h FROM (SELECT i, 1000 + (i * 7919) % 500 + (i > {count} / 2) * "
      "300 AS w, (SELECT read_hist FROM intervals WHERE run_id = {id} AND "
      "idx = 0) AS h FROM seq)",
      fmt::arg("count", count), fmt::arg("id", *id),
      fmt::arg("ns", sample_ns)));
  EXPECT_TRUE(filled.ok()) << filled.error().message;
  run.status = RunStatus::kOk;
  EXPECT_TRUE(store->FinishRun(*id, run).ok());
  return *id;
}

// --- Finding 14: a 0 s interval; long analyses end on SIGINT ---------------

TEST(HostileInput, SysbenchZeroReportIntervalIsRefused) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  std::ofstream(dir.File("zero.txt"))
      << Replaced(ReadFile(ImportFixture("sysbench-rndwr-async.txt")),
                  "every 1 second(s)", "every 0 second(s)");
  const Invocation result =
      RunFlashmark({"import", "sysbench", dir.File("zero.txt"), db});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("zero.txt:5: report interval \"0\" is not a "
                            "positive number of seconds"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("runs.db")))
      << "bad input creates no database";
}

// A run stored with an interval of 0 s and 1 s samples (what the import
// of "every 0 second(s)" stored): analyze, report and compare finish.
TEST(HostileInput, DegenerateIntervalRunIsAnalysedInFinishedTime) {
  TempDir dir;
  const std::string path = dir.File("runs.db");
  ASSERT_GT(StoreRun(path, 0, 1'000'000'000, 300, "a"), 0);
  ASSERT_GT(StoreRun(path, 0, 1'000'000'000, 300, "b"), 0);
  const std::string db = "--db=" + path;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"analyze", "1", db},
           {"analyze", "1", db, "--json", "--warmup", "auto"},
           {"report", "1", "2", db},
           {"compare", "1", "2", db}}) {
    const Invocation result = RunFlashmark(args, 20);
    EXPECT_EQ(result.exit_code, 0) << args[0] << ": " << result.err;
  }
}

// SIGINT (and SIGTERM) during a long analysis (or a long read) end it
// with 130 within a second: the store read and the computation both stop.
TEST(HostileInput, SignalEndsALongAnalysisWithinASecond) {
  TempDir dir;
  const std::string path = dir.File("runs.db");
  // 400k intervals: ~5 s of analysis on a loaded 2-core machine.
  ASSERT_GT(StoreRun(path, 10'000'000, 10'000'000, 400'000), 0);
  for (const auto& [command, signal] :
       std::vector<std::pair<std::string, int>>{{"analyze", SIGINT},
                                                {"report", SIGTERM},
                                                {"compare", SIGINT},
                                                {"show", SIGTERM},
                                                {"export", SIGINT}}) {
    std::vector<std::string> args = {command, "1", "--db=" + path};
    if (command == "compare") args.insert(args.begin() + 2, "1");
    const int pid = StartFlashmark(args, dir.File("out"), dir.File("err"));
    ASSERT_TRUE(WaitFor([pid] { return BlocksInterrupts(pid); }, 30))
        << command << " never blocked SIGINT and SIGTERM";
    usleep(300'000);  // into the analysis
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, WNOHANG), 0)
        << command << " finished before the signal: make the run longer";
    kill(pid, signal);
    const auto sent = std::chrono::steady_clock::now();
    pid_t done = 0;
    while ((done = waitpid(pid, &status, WNOHANG)) == 0 &&
           std::chrono::steady_clock::now() - sent < std::chrono::seconds(1)) {
      usleep(5'000);
    }
    if (done == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      ADD_FAILURE() << command << " still ran 1 s after the signal";
      continue;
    }
    ASSERT_TRUE(WIFEXITED(status)) << command << ": killed by the signal";
    EXPECT_EQ(WEXITSTATUS(status), 130)
        << command << ": " << ReadFile(dir.File("err"));
    EXPECT_NE(ReadFile(dir.File("err")).find("interrupted"), std::string::npos);
  }
}

// --- Finding 15: bytes that are not UTF-8 --------------------------------

TEST(HostileInput, SysbenchHeaderWithInvalidUtf8IsImportedAndShown) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  std::ofstream(dir.File("ff.txt"))
      << Replaced(ReadFile(ImportFixture("sysbench-rndwr-async.txt")),
                  "Extra file open flags: directio",
                  "Extra file open flags: directio \xff");
  const Invocation imported =
      RunFlashmark({"import", "sysbench", dir.File("ff.txt"), db});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"show", "1", db, "--json"},
           {"list", db, "--json"},
           {"export", "1", db, "--format", "json"}}) {
    const Invocation shown = RunFlashmark(args);
    ASSERT_EQ(shown.exit_code, 0) << args[0] << ": " << shown.err;
    EXPECT_TRUE(json::accept(shown.out)) << args[0];
  }
  const json doc = json::parse(RunFlashmark({"show", "1", db, "--json"}).out);
  EXPECT_NE(doc.dump().find("directio \xef\xbf\xbd"), std::string::npos)
      << "U+FFFD in JSON for the byte";
  auto store = RunStore::Open(dir.File("runs.db"));
  ASSERT_TRUE(store.ok());
  auto stored = store->LoadRun(1);
  ASSERT_TRUE(stored.ok());
  bool exact = false;
  for (const auto& [key, value] : stored->run.imported.options) {
    exact |= key == "file-extra-flags" && value == "directio \xff";
  }
  EXPECT_TRUE(exact) << "the store keeps the byte";
}

TEST(HostileInput, TargetDirectoryNamedWithInvalidUtf8) {
  TempDir dir;
  const std::string target = dir.File("x\xffy");
  ASSERT_TRUE(std::filesystem::create_directory(target));
  const std::string db_path = dir.File("runs.db");
  const Invocation result = RunFlashmark(
      {"run", target, "--size", "8M", "--file-num", "2", "--time", "1s", "-q",
       "--json", dir.File("run.json"), "--db=" + db_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(std::filesystem::is_empty(target)) << "the file set is removed";
  std::ifstream in(dir.File("run.json"));
  const json doc = json::parse(in);  // valid JSON (U+FFFD for the byte)
  EXPECT_EQ(doc["status"], "ok");
  auto store = RunStore::Open(db_path);
  ASSERT_TRUE(store.ok());
  auto stored = store->LoadRun(1);
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  EXPECT_EQ(stored->run.spec.targets, std::vector<std::string>{target});
  ASSERT_FALSE(stored->run.environment.targets.empty());
  EXPECT_EQ(stored->run.environment.targets[0].path, target);
}

TEST(HostileInput, LabelsAndTagsWithInvalidUtf8AndJson) {
  TempDir dir;
  const std::string db_path = dir.File("runs.db");
  const std::string db = "--db=" + db_path;
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {"--tag", "k=v\xff"}, {"--label", "\xc3"}}) {
    std::vector<std::string> args = {"run", "--engine", "null", "--time", "1s",
                                     "-q",  "--json",   "-",    db};
    args.insert(args.end(), extra.begin(), extra.end());
    const Invocation result = RunFlashmark(args);
    ASSERT_EQ(result.exit_code, 0) << extra[0] << ": " << result.err;
    EXPECT_TRUE(json::accept(result.out)) << extra[0];
  }
  const Invocation listed = RunFlashmark({"list", db, "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_EQ(json::parse(listed.out).size(), 2u);
  auto store = RunStore::Open(db_path);
  ASSERT_TRUE(store.ok());
  auto tagged = store->LoadRun(1);
  ASSERT_TRUE(tagged.ok());
  ASSERT_EQ(tagged->labels.tags.size(), 1u);
  EXPECT_EQ(tagged->labels.tags[0].second, "v\xff");
  auto labelled = store->LoadRun(2);
  ASSERT_TRUE(labelled.ok());
  EXPECT_EQ(labelled->labels.label, "\xc3");
}

// --- Finding 17: a repeating option takes one value each time -----------

TEST(HostileInput, RepeatingOptionsLeaveThePositionalsAlone) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const std::string target = dir.File("set");
  std::filesystem::create_directory(target);
  const std::vector<std::string> tiny = {"--size", "8M", "--file-num", "2",
                                         "--time", "1s", "-q",         db};
  for (const auto& lead : std::vector<std::vector<std::string>>{
           {"--tag", "k=v"},
           {"--allow-destroy=/dev/flashmark-none"},
           {"--allow-destroy", "/dev/flashmark-none"}}) {
    std::vector<std::string> args = {"run"};
    args.insert(args.end(), lead.begin(), lead.end());
    args.push_back(target);
    args.insert(args.end(), tiny.begin(), tiny.end());
    const Invocation result = RunFlashmark(args);
    EXPECT_EQ(result.exit_code, 0) << lead[0] << ": " << result.err;
  }
  const json runs = json::parse(RunFlashmark({"list", db, "--json"}).out);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0]["tags"]["k"], "v");
  const Invocation imported =
      RunFlashmark({"import", "sysbench", "--tag", "k=v",
                    ImportFixture("sysbench-rndwr-async.txt"), db});
  EXPECT_EQ(imported.exit_code, 0) << imported.err;
  const Invocation where =
      RunFlashmark({"report", "--where", "mode=rndwr", "1", db});
  EXPECT_EQ(where.exit_code, 2);
  EXPECT_NE(where.err.find("--where selects campaign cells"), std::string::npos)
      << where.err;
  const Invocation sweep =
      RunFlashmark({"sweep", "--allow-destroy", "/dev/flashmark-none",
                    std::string(FLASHMARK_SOURCE_DIR) + "/examples/quick.toml",
                    "--dry-run"});
  EXPECT_EQ(sweep.exit_code, 0) << sweep.err;
  const Invocation list = RunFlashmark({"list", "--tag", "k=v", "junk", db});
  EXPECT_EQ(list.exit_code, 2);
  EXPECT_NE(list.err.find("junk"), std::string::npos) << list.err;
}

// --- Finding 19: labels meant for a Markdown reader, a spreadsheet, a tty -

TEST(HostileInput, LabelsAreEscapedForEveryOutput) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const std::string label =
      "=HYPERLINK(\"http://evil.example\",\"x\")```\n# Injected\n"
      "![i](http://evil.example/i.png)\x1b[31m";
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "1s", "-q", db,
                          "--label", label})
                .exit_code,
            0);
  const Invocation report = RunFlashmark(
      {"report", "1", db, "--md", dir.File("r.md"), "--csv", dir.File("csv")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string md = ReadFile(dir.File("r.md"));
  // Outside the reproduce block, the label is text; inside, verbatim.
  const std::string text = md.substr(0, md.find("Reproduce with"));
  EXPECT_EQ(md.find("\n# Injected"), std::string::npos) << md;
  EXPECT_EQ(text.find("![i]("), std::string::npos) << md;
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
  EXPECT_NE(md.find("--label $'=HYPERLINK("), std::string::npos)
      << "the reproduce command shows the label's control characters";
  EXPECT_NE(md.find("\n````sh\n"), std::string::npos)
      << "the reproduce block's fence outruns the label's ```";
  const std::string csv = ReadFile(dir.File("csv/runs.csv"));
  EXPECT_EQ(csv.find(",\"=HYPERLINK"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",\"'=HYPERLINK"), std::string::npos) << csv;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"list", db}, {"show", "1", db}, {"report", "1", db}}) {
    const Invocation shown = RunFlashmark(args);
    EXPECT_EQ(shown.exit_code, 0) << args[0] << ": " << shown.err;
    EXPECT_EQ(shown.out.find('\x1b'), std::string::npos) << args[0];
    EXPECT_NE(shown.out.find("\\x1b[31m"), std::string::npos)
        << args[0] << ": " << shown.out;
    EXPECT_EQ(shown.out.find("\n# Injected"), std::string::npos) << args[0];
  }
}

// --- Finding 20: a killed run in `list` -----------------------------------

TEST(HostileInput, ListShowsAKilledRunsTimeAndMedian) {
  TempDir dir;
  const std::string path = dir.File("runs.db");
  {
    auto store = RunStore::Open(path);
    ASSERT_TRUE(store.ok());
    RunResult run;
    run.spec.mode = IoMode::kRndWr;
    run.command_line = "killed";
    auto id = store->BeginRun(run, {"killed", {}, "flashmark", ""});
    ASSERT_TRUE(id.ok());
    for (uint32_t i = 0; i < 4; ++i) {
      IntervalSample sample;
      sample.index = i;
      sample.start_ns = i * 1'000'000'000ull;
      sample.end_ns = (i + 1) * 1'000'000'000ull;
      sample.write = {25600, 25600ull * 4096};  // 100 MiB/s
      ASSERT_TRUE(store->AppendInterval(*id, sample).ok());
    }
    // (no FinishRun: the writer was killed with SIGKILL)
  }
  const Invocation listed = RunFlashmark({"list", "--db=" + path});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("write 100.0 MiB/s"), std::string::npos)
      << listed.out;
  EXPECT_NE(listed.out.find("     4 s  "), std::string::npos) << listed.out;
  EXPECT_EQ(listed.out.find("0 ns"), std::string::npos) << listed.out;
}

}  // namespace
}  // namespace flashmark::testing
