// `flashmark sweep --resume` guards (issue 11, findings 11 and 12): two
// resumes of one campaign started at once, of which exactly one runs it
// while the other exits 2 naming the live owner; and a changed $VARIABLE
// that moves the targets, refused (exit 2) naming the cell and the field.
// Real processes on a small campaign; no workload is measured.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "binary_runner.h"
#include "store/campaign_store.h"

namespace flashmark::testing {
namespace {

// The exit status once `pid` has ended, without waiting.
std::optional<int> Ended(int pid) {
  int status = 0;
  if (waitpid(pid, &status, WNOHANG) != pid) return std::nullopt;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool Contains(const std::string& path, const std::string& text) {
  return ReadFile(path).find(text) != std::string::npos;
}

std::vector<StoredCell> CellsOf(const std::string& db) {
  auto store = CampaignStore::Open(db);
  EXPECT_TRUE(store.ok());
  auto cells = store->Cells(1);
  EXPECT_TRUE(cells.ok());
  return cells.ok() ? *cells : std::vector<StoredCell>{};
}

TEST(SweepResume, TwoResumesAtOnceExactlyOneRunsTheOtherNamesTheOwner) {
  TempDir dir;
  const std::string db = dir.File("s.db");
  // Each cell starts with a long idle step: a sweep that got the campaign
  // sits there until the test interrupts it (exit 130, cell unfinished).
  std::ofstream(dir.File("c.toml"))
      << "[workload]\nengine = \"null\"\nsize = \"1G\"\ntime = \"1s\"\n"
         "[matrix]\nthreads = [1, 2]\n[[reset]]\nstep = \"idle\"\nseconds = 60\n";
  const std::vector<std::string> sweep = {"sweep", dir.File("c.toml"), "--db", db, "-q"};
  {
    const int pid = StartFlashmark(sweep, dir.File("out"), dir.File("err"));
    for (int i = 0; i < 6000 && !Contains(dir.File("out"), "reset: idle"); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill(pid, SIGINT);
    ASSERT_EQ(WaitFlashmark(pid), 130) << ReadFile(dir.File("out"));
  }
  std::vector<std::string> resume = sweep;
  resume.push_back("--resume");

  constexpr int kRounds = 12;
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round + 1));
    TempDir logs;
    const int pids[2] = {StartFlashmark(resume, logs.File("out0"), logs.File("err0")),
                         StartFlashmark(resume, logs.File("out1"), logs.File("err1"))};
    std::optional<int> codes[2];
    // Until one has given up and the other sits in its idle step, or both
    // reached the idle step (both claimed it: the bug), or both ended.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      bool idle[2];
      for (int i = 0; i < 2; ++i) {
        if (!codes[i]) codes[i] = Ended(pids[i]);
        idle[i] = Contains(logs.File("out" + std::to_string(i)), "reset: idle");
      }
      if ((idle[0] && idle[1]) || (codes[0] && codes[1]) || (codes[0] && idle[1]) ||
          (codes[1] && idle[0]) || std::chrono::steady_clock::now() > deadline) {
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
    const int loser = *codes[0] == 2 ? 0 : 1;
    const int winner = 1 - loser;
    const std::string loser_err = ReadFile(logs.File("err" + std::to_string(loser)));
    ASSERT_EQ(*codes[loser], 2) << "neither was refused: " << *codes[0] << " and "
                                << *codes[1] << "\n"
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
    const auto cells = CellsOf(db);
    ASSERT_EQ(cells.size(), 2u);
    EXPECT_EQ(cells[0].attempts, round + 2);
    EXPECT_EQ(cells[0].status, CellStatus::kInterrupted);
    EXPECT_EQ(cells[1].attempts, 0);
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
  for (const char* name : {"a", "b"}) ASSERT_EQ(mkdir(dir.File(name).c_str(), 0755), 0);
  const std::string db = dir.File("s.db");
  // The exec step interrupts the sweep (SIGINT to flashmark, its parent)
  // before each cell's run: the campaign is left to resume.
  std::ofstream(dir.File("c.toml"))
      << "[workload]\nengine = \"psync\"\nmode = \"rndrd\"\nsize = \"8M\"\nfile-num = 2\n"
         "time = \"1s\"\n[targets]\npaths = [\"$FLASHMARK_TEST_SET\"]\n"
         "[matrix]\nthreads = [1, 2]\n"
         "[[reset]]\nstep = \"exec\"\nargv = [\"sh\", \"-c\", \"kill -INT $$PPID\"]\n";
  ScopedVariable variable("FLASHMARK_TEST_SET");  // children inherit it
  variable.Set(dir.File("a"));
  const std::vector<std::string> sweep = {"sweep", dir.File("c.toml"), "--db", db, "-q"};
  const Invocation first = RunFlashmark(sweep);
  ASSERT_EQ(first.exit_code, 130) << first.out << first.err;

  std::vector<std::string> resume = sweep;
  resume.push_back("--resume");
  variable.Set(dir.File("b"));
  const Invocation moved = RunFlashmark(resume);
  EXPECT_EQ(moved.exit_code, 2) << moved.out << moved.err;
  EXPECT_NE(moved.err.find("expands to another plan than campaign 1"), std::string::npos)
      << moved.err;
  EXPECT_NE(moved.err.find("cell 1 (threads=1): targets[0]: \"" + dir.File("a") +
                           "\" then, \"" + dir.File("b") + "\" now"),
            std::string::npos)
      << moved.err;
  EXPECT_EQ(CellsOf(db)[0].attempts, 1) << "the refused resume started the cell";

  // As it was, the campaign resumes (and the exec step interrupts it again).
  variable.Set(dir.File("a"));
  const Invocation same = RunFlashmark(resume);
  EXPECT_EQ(same.exit_code, 130) << same.out << same.err;
  EXPECT_EQ(CellsOf(db)[0].attempts, 2);
}

}  // namespace
}  // namespace flashmark::testing
