// `flashmark sweep` running campaigns: cells stored as tagged runs, the
// campaign and cell records, SIGINT and kill -9 then --resume (every cell
// stored exactly once), a changed file refused for resume, failing cells
// recorded while the sweep goes on (or stops with --stop-on-error), and
// destructive steps refused without --allow-destroy before anything runs.
// Diskless (null engine) or on file sets in temporary directories.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>

#include "binary_runner.h"
#include "report/headline_text.h"
#include "store/campaign_store.h"
#include "store/run_store.h"
#include "stored_cells.h"

namespace flashmark::testing {
namespace {

// A null-engine campaign of `modes` x threads [1, 2], `time` per cell.
// (at 5000 IOPS: what these tests check is the campaign's bookkeeping, and
// unthrottled null runs kept both cores busy for the whole cell)
std::string NullCampaign(const std::string& time,
                         const std::string& extra = "") {
  return "[campaign]\nname = \"t\"\n[workload]\nengine = \"null\"\nsize = "
         "\"1G\"\n"
         "bs = \"4k\"\nrate = 5000\ntime = \"" +
         time +
         "\"\n[matrix]\nmode = [\"rndrd\", \"rndwr\"]\n"
         "threads = [1, 2]\n" +
         extra;
}

bool WaitUntil(const std::function<bool()>& done, int seconds) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// cell tag -> how many runs carry it, for the campaign.
std::map<std::string, int> RunsPerCell(const std::string& db,
                                       int64_t campaign) {
  auto store = RunStore::Open(db);
  EXPECT_TRUE(store.ok());
  RunFilter filter;
  filter.tags = {{"campaign", std::to_string(campaign)}};
  auto runs = store->ListRuns(filter);
  std::map<std::string, int> count;
  if (!runs.ok()) return count;
  for (const auto& run : *runs) {
    for (const auto& [key, value] : run.labels.tags) {
      if (key == "cell") ++count[value];
    }
    EXPECT_EQ(run.run.status, RunStatus::kOk) << "run " << run.id;
  }
  return count;
}

TEST(Sweep, RunsEveryCellAsATaggedRunAndRecordsTheCampaign) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  WriteText(dir.File("c.toml"), NullCampaign("1s"));
  const Invocation result =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "-q"});
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_NE(result.out.find("cell 4/4  mode=rndwr threads=2"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("campaign 1 finished: 4 cells ok, 0 failed"),
            std::string::npos);
  // The table's figure is each cell's headline, as every command shows it.
  EXPECT_NE(result.out.find("medians are each run's headline"),
            std::string::npos)
      << result.out;
  const Invocation listed_runs = RunFlashmark({"list", "--db", db, "--json"});
  ASSERT_EQ(listed_runs.exit_code, 0) << listed_runs.err;
  for (const auto& run : nlohmann::json::parse(listed_runs.out)) {
    const bool reads = run["headline"]["metric"] == "read_mibs";
    const std::string cell = fmt::format(
        "{} {} MiB/s", reads ? "read" : "write",
        MetricValueText(
            run["headline"]["median"].get<double>(),
            DescribeMetric(reads ? Metric::kReadMibs : Metric::kWriteMibs)));
    EXPECT_NE(result.out.find(cell), std::string::npos) << cell << "\n"
                                                        << result.out;
  }
  const auto cells = StoredCells(db, 1);
  ASSERT_EQ(cells.size(), 4u);
  for (const auto& cell : cells) {
    EXPECT_EQ(cell.status, CellStatus::kOk);
    EXPECT_EQ(cell.attempts, 1);
    EXPECT_TRUE(cell.run_id.has_value());
  }
  EXPECT_EQ(cells[2].parameters,
            (std::vector<std::pair<std::string, std::string>>{
                {"mode", "rndwr"}, {"threads", "1"}}));
  EXPECT_EQ(RunsPerCell(db, 1), (std::map<std::string, int>{
                                    {"1", 1}, {"2", 1}, {"3", 1}, {"4", 1}}));
  // The parameters are tags too, and the run repeats with `flashmark run`.
  const Invocation list =
      RunFlashmark({"list", "--db", db, "--tag", "threads=2", "--json"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(nlohmann::json::parse(list.out).size(), 2u);
  auto store = CampaignStore::Open(db);
  ASSERT_TRUE(store.ok());
  auto campaign = store->Find(1);
  ASSERT_TRUE(campaign.ok());
  EXPECT_EQ(campaign->status, CampaignStatus::kFinished);
  EXPECT_EQ(campaign->cell_count, 4);
  const Invocation campaigns =
      RunFlashmark({"list", "--campaigns", "--db", db, "--json"});
  ASSERT_EQ(campaigns.exit_code, 0) << campaigns.err;
  const auto listed = nlohmann::json::parse(campaigns.out);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0]["status"], "finished");
  EXPECT_EQ(listed[0]["cells_by_status"]["ok"], 4);

  // The report of the sweep: one box per cell (mode and threads vary), or
  // the median against threads for one mode.
  const Invocation report =
      RunFlashmark({"report", "--campaign", "1", "--db", db});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("by parameters:\n"), std::string::npos)
      << report.out;
  EXPECT_NE(
      report.out.find("  rule: each group pools the per-interval values of "
                      "its runs' headline windows"),
      std::string::npos)
      << report.out;
  EXPECT_NE(report.out.find("mode=rndwr threads=2  median"), std::string::npos)
      << report.out;
  EXPECT_NE(report.out.find("the cells differ in mode, threads"),
            std::string::npos);
  const Invocation threads =
      RunFlashmark({"report", "--campaign", "1", "--db", db, "--by", "threads",
                    "--where", "mode=rndwr", "--html", dir.File("w.html")});
  ASSERT_EQ(threads.exit_code, 0) << threads.err;
  EXPECT_NE(ReadFile(dir.File("w.html")).find("\"by\":\"threads\""),
            std::string::npos);
  const Invocation where = RunFlashmark(
      {"report", "--campaign", "1", "--db", db, "--where", "depth=1"});
  EXPECT_EQ(where.exit_code, 2);
  EXPECT_NE(where.err.find("its parameters: mode, threads"), std::string::npos)
      << where.err;

  // Nothing is left to resume.
  const Invocation again =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "--resume"});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("finished"), std::string::npos) << again.err;
}

// Kills the sweep (with `signal`) once cell 2 has measured an interval,
// then resumes it.
void InterruptAndResume(int signal, int expected_exit) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  WriteText(dir.File("c.toml"), NullCampaign("3s"));
  const int pid = StartFlashmark({"sweep", dir.File("c.toml"), "--db", db},
                                 dir.File("out"), dir.File("err"));
  const bool in_cell_two = WaitUntil(
      [&] {
        auto runs = RunStore::Open(db);
        if (!runs.ok()) return false;
        RunFilter filter;
        filter.tags = {{"cell", "2"}};
        auto found = runs->ListRuns(filter);
        if (!found.ok() || found->empty()) return false;
        auto whole = runs->LoadRun(found->front().id, false);
        return whole.ok() && !whole->run.intervals.empty();
      },
      60);
  ASSERT_TRUE(in_cell_two) << ReadFile(dir.File("out"))
                           << ReadFile(dir.File("err"));
  kill(pid, signal);
  EXPECT_EQ(WaitFlashmark(pid), expected_exit) << ReadFile(dir.File("err"));
  auto cells = StoredCells(db, 1);
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[0].status, CellStatus::kOk);
  EXPECT_EQ(cells[1].status, signal == SIGKILL ? CellStatus::kRunning
                                               : CellStatus::kInterrupted);
  EXPECT_EQ(cells[2].status, CellStatus::kPending);

  const Invocation resumed = RunFlashmark(
      {"sweep", dir.File("c.toml"), "--db", db, "--resume", "-q"}, 120);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err << resumed.out;
  EXPECT_NE(resumed.out.find("1 finished before"), std::string::npos)
      << resumed.out;
  EXPECT_NE(resumed.out.find("cell 2 was interrupted: its partial run"),
            std::string::npos)
      << resumed.out;
  EXPECT_EQ(resumed.out.find("cell 1/4"), std::string::npos)
      << "cell 1 ran again";
  cells = StoredCells(db, 1);
  EXPECT_EQ(cells[0].attempts, 1);
  EXPECT_EQ(cells[1].attempts, 2);
  EXPECT_EQ(cells[3].attempts, 1);
  for (const auto& cell : cells) EXPECT_EQ(cell.status, CellStatus::kOk);
  EXPECT_EQ(RunsPerCell(db, 1), (std::map<std::string, int>{
                                    {"1", 1}, {"2", 1}, {"3", 1}, {"4", 1}}));
}

TEST(Sweep, InterruptThenResumeStoresEveryCellOnce) {
  InterruptAndResume(SIGINT, 130);
}

TEST(Sweep, KillNineThenResumeStoresEveryCellOnce) {
  InterruptAndResume(SIGKILL, 128 + SIGKILL);
}

TEST(Sweep, ResumeRefusesAChangedCampaignFile) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  WriteText(dir.File("c.toml"),
            NullCampaign("1s",
                         "[[reset]]\nstep = \"exec\"\n"
                         "argv = [\"false\"]\nwhen = { threads = 2 }\n"));
  const Invocation first = RunFlashmark(
      {"sweep", dir.File("c.toml"), "--db", db, "-q", "--stop-on-error"});
  EXPECT_EQ(first.exit_code, 1) << first.err;
  EXPECT_NE(
      first.out.find("cell 2 failed: exec `false` failed (exit status 1)"),
      std::string::npos)
      << first.out;
  EXPECT_EQ(first.out.find("cell 3/4"), std::string::npos)
      << "went on after the error";
  WriteText(dir.File("c.toml"), NullCampaign("2s"));
  const Invocation changed =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "--resume"});
  EXPECT_EQ(changed.exit_code, 2);
  EXPECT_NE(changed.err.find("changed since campaign 1 started"),
            std::string::npos)
      << changed.err;
  EXPECT_EQ(StoredCells(db, 1)[2].status, CellStatus::kPending);
}

TEST(Sweep, AFailingCellIsRecordedAndTheSweepGoesOn) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  WriteText(
      dir.File("c.toml"),
      NullCampaign("1s",
                   "[[reset]]\nstep = \"exec\"\n"
                   "argv = [\"sh\", \"-c\", \"echo no disk >&2; exit 3\"]\n"
                   "when = { threads = 2, mode = \"rndwr\" }\n"));
  const Invocation result =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "-q"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.out.find("3 cells ok, 1 failed"), std::string::npos)
      << result.out;
  const auto cells = StoredCells(db, 1);
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[3].status, CellStatus::kFailed);
  EXPECT_NE(cells[3].error.find("exit status 3): no disk"), std::string::npos)
      << cells[3].error;
  ASSERT_EQ(cells[3].reset.size(), 1u);
  EXPECT_EQ(cells[3].reset[0]["exit_status"], 3);
  EXPECT_EQ(cells[3].reset[0]["output"], "no disk\n");
  EXPECT_FALSE(cells[3].run_id.has_value());
  EXPECT_EQ(cells[2].status, CellStatus::kOk);
}

TEST(Sweep, DestructiveStepsNeedAllowDestroyBeforeAnythingRuns) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  WriteText(
      dir.File("c.toml"),
      NullCampaign("1s",
                   "[[reset]]\nstep = \"discard\"\ndevice = \"/dev/vda\"\n"));
  const Invocation result =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("not named in --allow-destroy"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("/dev/vda"), std::string::npos);
  EXPECT_EQ(access(db.c_str(), F_OK), -1) << "the database was created";
}

TEST(Sweep, FileSetCellsRunInATemporaryDirectory) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  WriteText(dir.File("c.toml"),
            "[workload]\nengine = \"psync\"\nsize = \"8M\"\nfile-num = 2\nbs = "
            "\"4k\"\n"
            "time = \"1s\"\n[targets]\npaths = [\"" +
                dir.File("set") +
                "\"]\n"
                "[matrix]\nmode = [\"rndwr\", \"rndrd\"]\n"
                "[[reset]]\nstep = \"exec\"\nargv = [\"mkdir\", \"-p\", \"" +
                dir.File("set") +
                "\"]\n[[reset]]\nstep = \"idle\"\nseconds = 1\n");
  const Invocation result =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "-q"});
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_NE(result.out.find("reset: idle 1 s"), std::string::npos)
      << result.out;
  const auto cells = StoredCells(db, 1);
  ASSERT_EQ(cells.size(), 2u);
  ASSERT_EQ(cells[1].reset.size(), 2u);
  EXPECT_EQ(cells[1].reset[0]["argv"][0], "mkdir");
  EXPECT_EQ(cells[1].reset[1]["step"], "idle");
}

TEST(Sweep, TwoTargetsRunAtOnceWithPerTargetAndAggregateRuns) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  for (const char* name : {"a", "b"})
    ASSERT_EQ(mkdir(dir.File(name).c_str(), 0755), 0);
  WriteText(dir.File("c.toml"),
            "[workload]\nengine = \"psync\"\nmode = \"rndwr\"\nsize = \"8M\"\n"
            "file-num = 2\nbs = \"4k\"\ntime = \"2s\"\n[targets]\npaths = [\"" +
                dir.File("a") + "\", \"" + dir.File("b") +
                "\"]\n[matrix]\nthreads = [1, 2]\n");
  const Invocation result =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db});
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_NE(result.out.find("on 2 targets at once, 2 threads each"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("] all targets: read 0.0 MiB/s  write "),
            std::string::npos)
      << result.out;
  auto runs = RunStore::Open(db);
  ASSERT_TRUE(runs.ok());
  for (const auto& cell : StoredCells(db, 1)) {
    SCOPED_TRACE("cell " + std::to_string(cell.index + 1));
    ASSERT_TRUE(cell.run_id.has_value());
    auto total = runs->LoadRun(*cell.run_id, false);
    ASSERT_TRUE(total.ok());
    EXPECT_EQ(total->run.spec.threads, 2 * (cell.index + 1));
    ASSERT_EQ(total->run.environment.targets.size(), 2u);
    std::vector<StoredRun> parts;
    for (const char* name : {"a", "b"}) {
      RunFilter filter;
      filter.tags = {{"cell", std::to_string(cell.index + 1)},
                     {"part", dir.File(name)}};
      auto found = runs->ListRuns(filter);
      ASSERT_TRUE(found.ok());
      ASSERT_EQ(found->size(), 1u);
      auto part = runs->LoadRun(found->front().id, false);
      ASSERT_TRUE(part.ok());
      EXPECT_EQ(part->run.spec.threads, cell.index + 1);
      parts.push_back(std::move(*part));
    }
    ASSERT_GE(total->run.intervals.size(), 2u);
    for (size_t k = 0; k < total->run.intervals.size(); ++k) {
      EXPECT_EQ(total->run.intervals[k].write.bytes,
                parts[0].run.intervals[k].write.bytes +
                    parts[1].run.intervals[k].write.bytes);
      EXPECT_GT(parts[1].run.intervals[k].write.ios, 0u);
    }
  }
}

}  // namespace
}  // namespace flashmark::testing
