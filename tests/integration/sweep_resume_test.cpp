// `flashmark sweep --resume` guards (issue 11, findings 11 and 12): two
// resumes of one campaign started at once, of which exactly one runs it
// while the other exits 2 naming the live owner; and a changed $VARIABLE
// that moves the targets, refused (exit 2) naming the cell and the field.
// Real processes on a small campaign; no workload is measured.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "binary_runner.h"
#include "store/campaign_store.h"
#include "store/sqlite.h"
#include "stored_cells.h"

namespace flashmark::testing {
namespace {

// The exit status once `pid` has ended, without waiting.
bool Contains(const std::string& path, const std::string& text) {
  return ReadFile(path).find(text) != std::string::npos;
}

// How often cell `index` of campaign 1 was started and its status, read
// without migrating the database (any flashmark may hold it); -1 and ""
// before it exists.
std::pair<int, std::string> CellRow(const std::string& db, int index) {
  auto connection = Database::Open(db, false);
  if (!connection.ok()) return {-1, ""};
  auto query = connection->Prepare(
      "SELECT attempts, status FROM campaign_cells WHERE campaign_id = 1 AND "
      "idx = ?1");
  if (!query.ok()) return {-1, ""};
  query->Bind(1, int64_t{index});
  auto row = query->Step();
  if (!row.ok() || !*row) return {-1, ""};
  return {static_cast<int>(query->Int(0)), query->Text(1)};
}

int CellOneAttempts(const std::string& db) { return CellRow(db, 0).first; }

TEST(SweepResume, TwoResumesAtOnceExactlyOneRunsTheOtherNamesTheOwner) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  // Each cell starts with a long idle step: a sweep that got the campaign
  // sits there until the test interrupts it (exit 130, cell unfinished).
  // Who started the cell is read from the database, not from the output.
  std::ofstream(dir.File("c.toml"))
      << "[workload]\nengine = \"null\"\nsize = \"1G\"\ntime = \"1s\"\n"
         "[matrix]\nthreads = [1, 2]\n"
         "[[reset]]\nstep = \"idle\"\nseconds = 60\n";
  const std::vector<std::string> sweep = {"sweep", dir.File("c.toml"), "--db",
                                          db, "-q"};
  {
    const int pid = StartFlashmark(sweep, dir.File("out"), dir.File("err"));
    bool started = false;
    for (int i = 0; i < 6000 && !started; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      started = CellOneAttempts(db) == 1;
    }
    kill(pid, SIGINT);
    EXPECT_TRUE(started) << "cell 1 did not start within 30 s";
    ASSERT_EQ(WaitFlashmark(pid), 130) << ReadFile(dir.File("out"));
  }
  std::vector<std::string> resume = sweep;
  resume.push_back("--resume");

  constexpr int kRounds = 12;
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round + 1));
    TempDir logs;
    const int pids[2] = {
        StartFlashmark(resume, logs.File("out0"), logs.File("err0")),
        StartFlashmark(resume, logs.File("out1"), logs.File("err1"))};
    std::optional<int> codes[2];
    // Until one has given up and the other started the cell, or both
    // started it (both claimed the campaign: the bug), or both ended.
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(30);
    bool timed_out = false;
    for (;;) {
      for (int i = 0; i < 2; ++i) {
        if (!codes[i]) codes[i] = ExitCodeIfEnded(pids[i]);
      }
      const int attempts = CellOneAttempts(db);
      timed_out = std::chrono::steady_clock::now() > deadline;
      if ((codes[0] && codes[1]) || attempts >= round + 3 ||
          ((codes[0] || codes[1]) && attempts == round + 2) || timed_out) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    for (int i = 0; i < 2; ++i) {
      if (!codes[i]) {
        kill(pids[i], SIGINT);
        codes[i] = WaitFlashmark(pids[i]);
      }
    }
    EXPECT_FALSE(timed_out) << "neither gave up nor started the cell in 30 s";
    const int loser = *codes[0] == 2 ? 0 : 1;
    const int winner = 1 - loser;
    const std::string loser_err =
        ReadFile(logs.File("err" + std::to_string(loser)));
    ASSERT_EQ(*codes[loser], 2)
        << "neither was refused: " << *codes[0] << " and " << *codes[1] << "\n"
        << ReadFile(logs.File("out0")) << ReadFile(logs.File("out1"));
    ASSERT_EQ(*codes[winner], 130)
        << ReadFile(logs.File("out" + std::to_string(winner)))
        << ReadFile(logs.File("err" + std::to_string(winner)));
    EXPECT_NE(loser_err.find("campaign 1 is being run by process " +
                             std::to_string(pids[winner])),
              std::string::npos)
        << loser_err;
    EXPECT_FALSE(Contains(logs.File("out" + std::to_string(loser)), "cell 1/2"))
        << "the refused resume started a cell";
    // Cell 1 started once more per round: by the winner only.
    EXPECT_EQ(CellRow(db, 0),
              std::make_pair(round + 2, std::string("interrupted")));
    EXPECT_EQ(CellRow(db, 1), std::make_pair(0, std::string("pending")));
  }
}

// Restores (or unsets) an environment variable when the test ends.
class ScopedVariable {
 public:
  explicit ScopedVariable(const char* name) : name_(name) {
    if (const char* value = std::getenv(name)) before_ = value;
  }
  ~ScopedVariable() {
    if (before_) {
      setenv(name_, before_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  void Set(const std::string& value) { setenv(name_, value.c_str(), 1); }

 private:
  const char* name_;
  std::optional<std::string> before_;
};

TEST(SweepResume, RefusesAVariableThatMovedTheTargets) {
  TempDir dir;
  for (const char* name : {"a", "b"}) {
    ASSERT_EQ(mkdir(dir.File(name).c_str(), 0755), 0);
  }
  const std::string db = dir.File("s.db");
  // Every cell's exec step fails: with --stop-on-error the sweep stops
  // after cell 1 and leaves cell 2 to resume, without running a workload.
  std::ofstream(dir.File("c.toml"))
      << "[workload]\nengine = \"psync\"\nmode = \"rndrd\"\n"
         "size = \"8M\"\nfile-num = 2\ntime = \"1s\"\n"
         "[targets]\npaths = [\"$FLASHMARK_TEST_SET\"]\n"
         "[matrix]\nthreads = [1, 2]\n"
         "[[reset]]\nstep = \"exec\"\nargv = [\"false\"]\n";
  ScopedVariable variable("FLASHMARK_TEST_SET");  // children inherit it
  variable.Set(dir.File("a"));
  const std::vector<std::string> sweep = {
      "sweep", dir.File("c.toml"), "--db", db, "-q", "--stop-on-error"};
  const Invocation first = RunFlashmark(sweep);
  ASSERT_EQ(first.exit_code, 1) << first.out << first.err;

  std::vector<std::string> resume = sweep;
  resume.push_back("--resume");
  variable.Set(dir.File("b"));
  const Invocation moved = RunFlashmark(resume);
  EXPECT_EQ(moved.exit_code, 2) << moved.out << moved.err;
  EXPECT_NE(moved.err.find("expands to another plan than campaign 1"),
            std::string::npos)
      << moved.err;
  EXPECT_NE(
      moved.err.find("cell 1 (threads=1): targets[0]: \"" + dir.File("a") +
                     "\" then, \"" + dir.File("b") + "\" now"),
      std::string::npos)
      << moved.err;
  auto cells = StoredCells(db);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1].attempts, 0) << "the refused resume started a cell";

  // As it was, the campaign resumes (and cell 2's exec step fails too).
  variable.Set(dir.File("a"));
  const Invocation same = RunFlashmark(resume);
  EXPECT_EQ(same.exit_code, 1) << same.out << same.err;
  EXPECT_NE(same.out.find("cell 2 failed: exec `false` failed"),
            std::string::npos)
      << same.out;
  cells = StoredCells(db);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1].attempts, 1);
}

}  // namespace
}  // namespace flashmark::testing
