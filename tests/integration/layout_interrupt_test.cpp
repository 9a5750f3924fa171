// An interrupt is an interruption wherever it lands (issue 11, finding
// 13): SIGINT while a file set is laid out, for `flashmark run`, for a
// sweep cell and for a sweep's precondition step, and a Ctrl-C that also
// ends a reset step's program. Each exits 130, stores no failed cell or
// run and leaves no file behind; the sweep's cell stays unfinished and
// `--resume` runs it again. Real signals, real file sets in temporary
// directories (2 GiB planned, so the layout is still going when the
// signal comes; it stops within a chunk, so little is written).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "binary_runner.h"
#include "store/campaign_store.h"
#include "store/run_store.h"
#include "stored_cells.h"

namespace flashmark::testing {
namespace {

// The exit status once `pid` has ended, without waiting.
// Starts flashmark, sends `signal` once "laying out" is printed, and
// returns its exit status. A flashmark that does not end within 30 s of
// the signal, or that goes on to another cell ("cell 2/2": it took the
// interrupt for a failure), is killed (SIGKILL: status 137) rather than
// left to lay out gigabytes.
int InterruptDuringLayout(const std::vector<std::string>& args,
                          const TempDir& dir, int signal = SIGINT) {
  const int pid = StartFlashmark(args, dir.File("out"), dir.File("err"));
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool signalled = false;
  for (;;) {
    if (const auto code = ExitCodeIfEnded(pid)) {
      EXPECT_TRUE(signalled)
          << "ended before its layout: " << ReadFile(dir.File("out"))
          << ReadFile(dir.File("err"));
      return *code;
    }
    const std::string out = ReadFile(dir.File("out"));
    if (!signalled && out.find("laying out") != std::string::npos) {
      kill(pid, signal);
      signalled = true;
      deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    }
    const bool went_on = signalled && out.find("cell 2/2") != std::string::npos;
    if (went_on || std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << (went_on ? "the sweep went on after the signal"
                                : "no end in time (or no layout)")
                    << ": " << out << ReadFile(dir.File("err"));
      kill(pid, SIGKILL);
      return WaitFlashmark(pid);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::vector<std::string> FilesIn(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    names.push_back(entry.path().filename());
  }
  return names;
}

size_t RunCount(const std::string& db) {
  auto runs = RunStore::Open(db);
  EXPECT_TRUE(runs.ok());
  auto listed = runs->ListRuns(RunFilter{});
  EXPECT_TRUE(listed.ok());
  return listed.ok() ? listed->size() : 0;
}

CampaignStatus CampaignStatusOf(const std::string& db) {
  auto store = CampaignStore::Open(db);
  EXPECT_TRUE(store.ok());
  auto campaign = store->Find(1);
  EXPECT_TRUE(campaign.ok());
  return campaign.ok() ? campaign->status : CampaignStatus::kFinished;
}

// SIGINT (Ctrl-C) and SIGTERM alike.
class LayoutInterruptBy : public ::testing::TestWithParam<int> {};

TEST_P(LayoutInterruptBy, RunExits130AndStoresAndLeavesNothing) {
  TempDir dir;
  ASSERT_EQ(mkdir(dir.File("set").c_str(), 0755), 0);
  const std::string db = dir.File("r.db");
  const int code = InterruptDuringLayout(
      {"run", dir.File("set"), "--mode", "rndwr", "--size", "2G", "--file-num",
       "2", "--time", "1s", "--db", db},
      dir, GetParam());
  const std::string err = ReadFile(dir.File("err"));
  EXPECT_EQ(code, 130) << err;
  EXPECT_NE(err.find("interrupted during layout"), std::string::npos) << err;
  EXPECT_NE(err.find("no run stored"), std::string::npos) << err;
  EXPECT_EQ(err.find("error:"), std::string::npos)
      << "an interruption is no error: " << err;
  EXPECT_EQ(FilesIn(dir.File("set")), std::vector<std::string>{})
      << "files left behind";
  EXPECT_EQ(RunCount(db), 0u) << "a run was stored";
}

// A sweep of two file-set cells: SIGINT or SIGTERM during cell 1's layout
// stops the sweep (exit 130) with cell 1 interrupted, not failed, and cell
// 2 not started; --resume starts at cell 1 again.
TEST_P(LayoutInterruptBy, SweepStopsLeavesTheCellToRerunAndResumeRunsIt) {
  TempDir dir;
  ASSERT_EQ(mkdir(dir.File("set").c_str(), 0755), 0);
  const std::string db = dir.File("s.db");
  std::ofstream(dir.File("c.toml"))
      << "[workload]\nengine = \"psync\"\nmode = \"rndwr\"\n"
         "size = \"2G\"\nfile-num = 2\nbs = \"4k\"\ntime = \"1s\"\n"
         "[targets]\npaths = [\""
      << dir.File("set") << "\"]\n[matrix]\nthreads = [1, 2]\n";
  const int code = InterruptDuringLayout(
      {"sweep", dir.File("c.toml"), "--db", db}, dir, GetParam());
  const std::string out = ReadFile(dir.File("out"));
  EXPECT_EQ(code, 130) << out << ReadFile(dir.File("err"));
  EXPECT_EQ(out.find("cell 2/2"), std::string::npos)
      << "the sweep went on: " << out;
  EXPECT_NE(out.find("interrupted during layout"), std::string::npos) << out;
  auto cells = StoredCells(db);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].status, CellStatus::kInterrupted) << cells[0].error;
  EXPECT_EQ(cells[1].status, CellStatus::kPending);
  EXPECT_EQ(CampaignStatusOf(db), CampaignStatus::kInterrupted);
  EXPECT_EQ(FilesIn(dir.File("set")), std::vector<std::string>{});
  EXPECT_EQ(RunCount(db), 0u);

  // --resume takes it up at cell 1 (interrupted again, in the same place).
  TempDir again;
  const int resumed = InterruptDuringLayout(
      {"sweep", dir.File("c.toml"), "--db", db, "--resume"}, again, GetParam());
  EXPECT_EQ(resumed, 130) << ReadFile(again.File("out"))
                          << ReadFile(again.File("err"));
  EXPECT_NE(ReadFile(again.File("out")).find("cell 1/2"), std::string::npos)
      << ReadFile(again.File("out"));
  cells = StoredCells(db);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].attempts, 2);
  EXPECT_EQ(cells[0].status, CellStatus::kInterrupted);
  EXPECT_EQ(FilesIn(dir.File("set")), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Signals, LayoutInterruptBy,
                         ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& param_info) {
                           return std::string(param_info.param == SIGINT
                                                  ? "Sigint"
                                                  : "Sigterm");
                         });

// The same in a precondition step's layout (a workload on the cell's
// targets before the cell's run).
TEST(LayoutInterrupt, PreconditionLayoutIsAnInterruptionToo) {
  TempDir dir;
  ASSERT_EQ(mkdir(dir.File("set").c_str(), 0755), 0);
  const std::string db = dir.File("s.db");
  std::ofstream(dir.File("c.toml"))
      << "[workload]\nengine = \"psync\"\nmode = \"rndrd\"\n"
         "size = \"8M\"\nfile-num = 2\ntime = \"1s\"\n"
         "[targets]\npaths = [\""
      << dir.File("set")
      << "\"]\n[matrix]\nthreads = [1, 2]\n"
         "[[reset]]\nstep = \"precondition\"\n"
         "workload = { mode = \"rndwr\", size = \"2G\", file-num = 2, "
         "time = \"1s\" }\n";
  const int code =
      InterruptDuringLayout({"sweep", dir.File("c.toml"), "--db", db}, dir);
  EXPECT_EQ(code, 130) << ReadFile(dir.File("out"))
                       << ReadFile(dir.File("err"));
  const auto cells = StoredCells(db);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].status, CellStatus::kInterrupted) << cells[0].error;
  EXPECT_EQ(cells[1].status, CellStatus::kPending);
  EXPECT_EQ(CampaignStatusOf(db), CampaignStatus::kInterrupted);
  EXPECT_EQ(FilesIn(dir.File("set")), std::vector<std::string>{});
}

// Ctrl-C at a terminal reaches the whole process group: the exec step's
// program dies of it (and so "fails") while flashmark takes it as an
// interrupt. Emulated without a terminal: the step signals flashmark, its
// parent, then itself.
TEST(LayoutInterrupt, CtrlCThatEndsAnExecStepIsAnInterruption) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  std::ofstream(dir.File("c.toml"))
      << "[workload]\nengine = \"null\"\nsize = \"1G\"\ntime = \"1s\"\n"
         "[matrix]\nthreads = [1, 2]\n[[reset]]\nstep = \"exec\"\n"
         "argv = [\"sh\", \"-c\", \"kill -INT $$PPID; kill -INT $$$$\"]\n";
  const Invocation result =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "-q"});
  EXPECT_EQ(result.exit_code, 130) << result.out << result.err;
  const auto cells = StoredCells(db);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].status, CellStatus::kInterrupted) << cells[0].error;
  ASSERT_EQ(cells[0].reset.size(), 1u);
  EXPECT_EQ(cells[0].reset[0]["signal"], SIGINT)
      << "the step's program was not interrupted";
  EXPECT_EQ(cells[1].status, CellStatus::kPending);
  EXPECT_EQ(CampaignStatusOf(db), CampaignStatus::kInterrupted);
}

}  // namespace
}  // namespace flashmark::testing
