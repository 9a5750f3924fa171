// Integration tests of a `flashmark run` disturbed from outside, with real
// signals and real concurrent processes:
//   - SIGPIPE (`run ... | head -1`) never ends a measurement; SIGHUP (a
//     dropped ssh session) stops it like SIGINT: everything measured is
//     kept, the file set is removed, exit status 130;
//   - a store locked by another process, or the process stopped (SIGSTOP)
//     for seconds, never bends a sample: every interval is stamped with
//     its true times, a stall is one sample that says so, no fake zeros.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "binary_runner.h"
#include "store/run_store.h"
#include "store/sqlite.h"

namespace flashmark::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Waits for `pid` to exit, at most `seconds` (then kills it: -1).
int WaitForExit(int pid, int seconds) {
  const auto deadline = Clock::now() + std::chrono::seconds(seconds);
  for (;;) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (Clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// The only run in `db`, with its intervals.
StoredRun OnlyRun(const std::string& db) {
  auto store = RunStore::Open(db);
  EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error().message);
  if (!store.ok()) return {};
  auto runs = store->ListRuns({});
  EXPECT_TRUE(runs.ok());
  if (!runs.ok() || runs->size() != 1) {
    ADD_FAILURE() << "expected one run in " << db;
    return {};
  }
  auto loaded = store->LoadRun(runs->front().id);
  EXPECT_TRUE(loaded.ok());
  return loaded.ok() ? *loaded : StoredRun{};
}

size_t FullIntervals(const RunResult& run) {
  size_t full = 0;
  for (const IntervalSample& sample : run.intervals) full += !sample.partial;
  return full;
}

TEST(RunSignals, AClosedStdoutEndsTheOutputNotTheMeasurement) {
  TempDir dir;
  const std::string set = dir.File("set"), db = dir.File("runs.db");
  ASSERT_EQ(mkdir(set.c_str(), 0755), 0);
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const std::vector<std::string> args = {
      FLASHMARK_BINARY, "run", set,    "--size", "8M", "--file-num", "2",
      "--time",         "3s",  "--db", db};
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const std::string err_path = dir.File("stderr");
  const pid_t pid = fork();
  if (pid == 0) {
    // `flashmark run ... | head -1`: stdout is a pipe whose reader leaves.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGPIPE, SIG_DFL);
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(err, STDERR_FILENO);
    const int null_in = open("/dev/null", O_RDONLY);
    dup2(null_in, STDIN_FILENO);
    execv(FLASHMARK_BINARY, argv.data());
    _exit(127);
  }
  ASSERT_GT(pid, 0);
  close(pipe_fds[1]);
  std::string first_line;
  char c = 0;
  while (read(pipe_fds[0], &c, 1) == 1 && c != '\n') first_line += c;
  close(pipe_fds[0]);  // head -1 is done
  EXPECT_NE(first_line.find("flashmark"), std::string::npos) << first_line;

  EXPECT_EQ(WaitForExit(pid, 60), 0) << ReadFile(err_path);
  const StoredRun stored = OnlyRun(db);
  EXPECT_EQ(stored.run.status, RunStatus::kOk);
  EXPECT_EQ(FullIntervals(stored.run), 3u) << "the run went on to its end";
  EXPECT_GT(stored.run.summary.read.ios, 0u);
  EXPECT_EQ(DirectoryEntries(set), 0u) << "the file set was removed";
}

TEST(RunSignals, SighupStopsLikeAnInterruptAndKeepsWhatWasMeasured) {
  TempDir dir;
  const std::string set = dir.File("set"), db = dir.File("runs.db");
  ASSERT_EQ(mkdir(set.c_str(), 0755), 0);
  const std::string out = dir.File("stdout"), err = dir.File("stderr");
  const int pid = StartFlashmark({"run", set, "--size", "8M", "--file-num", "2",
                                  "--time", "60s", "--db", db},
                                 out, err);
  ASSERT_TRUE(WaitFor(
      [&] { return ReadFile(out).find("[    2s]") != std::string::npos; }, 30))
      << ReadFile(out) << ReadFile(err);
  ASSERT_EQ(DirectoryEntries(set), 3u) << "two files and the manifest";
  const auto hung_up = Clock::now();
  kill(pid, SIGHUP);  // the ssh session dropped
  EXPECT_EQ(WaitForExit(pid, 30), 130) << ReadFile(err);
  EXPECT_LT(Clock::now() - hung_up, std::chrono::seconds(5))
      << "stops within an interval (plus clean-up)";
  const StoredRun stored = OnlyRun(db);
  EXPECT_EQ(stored.run.status, RunStatus::kInterrupted);
  EXPECT_GE(FullIntervals(stored.run), 2u);
  EXPECT_GT(stored.run.summary.read.ios, 0u);
  EXPECT_EQ(DirectoryEntries(set), 0u) << "the file set was removed";
}

// Rows in the intervals table (0 while the database is not there yet).
int64_t StoredIntervals(const std::string& db) {
  auto raw = Database::Open(db, false);
  if (!raw.ok()) return 0;
  auto count = raw->Prepare("SELECT count(*) FROM intervals");
  if (!count.ok()) return 0;
  auto row = count->Step();
  return row.ok() && *row ? count->Int(0) : 0;
}

// Every full interval of a --rate 1000 run: contiguous true times, about
// one configured interval per span, 1000 IOPS: within 1 % over them all,
// within 15 % each (on a loaded machine the worker may be descheduled for
// tens of ms at a boundary, moving that many IOs to the next interval: 56
// were moved with a load average of 8 on 2 cores; under the disturbances
// tested here the old sampler read intervals of 0 to 3,734).
void ExpectTrueFlatIntervals(const RunResult& run) {
  uint64_t previous_end = 0, ios = 0, ns = 0;
  for (const IntervalSample& sample : run.intervals) {
    EXPECT_EQ(sample.start_ns, previous_end) << "interval " << sample.index;
    previous_end = sample.end_ns;
    if (sample.partial) continue;
    EXPECT_GE(sample.spans, 1u);
    EXPECT_NEAR(sample.seconds(), sample.spans * 1.0, 0.1)
        << "interval " << sample.index;
    EXPECT_NEAR(sample.Iops(), 1000, 150)
        << "interval " << sample.index << " " << sample.start_ns << ".."
        << sample.end_ns;
    ios += sample.read.ios + sample.write.ios;
    ns += sample.end_ns - sample.start_ns;
  }
  ASSERT_GT(ns, 0u);
  EXPECT_NEAR(ios / (ns / 1e9), 1000, 10);
}

TEST(RunSampling, AStoreLockedByAnotherProcessDelaysWritingNotSampling) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  const std::string out = dir.File("stdout"), err = dir.File("stderr");
  const int pid = StartFlashmark({"run", "--engine", "null", "--rate", "1000",
                                  "--time", "6s", "--db", db, "-q"},
                                 out, err);
  ASSERT_TRUE(WaitFor([&] { return StoredIntervals(db) >= 1; }, 30))
      << ReadFile(err);
  {
    // Another writer holds the database for 3.5 s.
    auto other = Database::Open(db, false);
    ASSERT_TRUE(other.ok());
    ASSERT_TRUE(other->Execute("BEGIN EXCLUSIVE").ok());
    const int64_t before = StoredIntervals(db);
    std::this_thread::sleep_for(std::chrono::milliseconds(3500));
    EXPECT_EQ(StoredIntervals(db), before) << "the lock held the writer";
    ASSERT_TRUE(other->Execute("COMMIT").ok());
  }
  ASSERT_EQ(WaitForExit(pid, 60), 0) << ReadFile(err);
  const StoredRun stored = OnlyRun(db);
  EXPECT_EQ(stored.run.status, RunStatus::kOk);
  EXPECT_EQ(FullIntervals(stored.run), 6u);
  for (const IntervalSample& sample : stored.run.intervals) {
    EXPECT_EQ(sample.spans, 1u) << "interval " << sample.index;
  }
  ExpectTrueFlatIntervals(stored.run);
}

TEST(RunSampling, AStoppedProcessIsOneSampleWithItsTrueDurationNoZeros) {
  TempDir dir;
  const std::string db = dir.File("runs.db"), doc = dir.File("run.json");
  const std::string out = dir.File("stdout"), err = dir.File("stderr");
  const int pid = StartFlashmark({"run", "--engine", "null", "--rate", "1000",
                                  "--time", "8s", "--db", db, "--json", doc},
                                 out, err);
  ASSERT_TRUE(WaitFor(
      [&] { return ReadFile(out).find("[    2s]") != std::string::npos; }, 30))
      << ReadFile(out) << ReadFile(err);
  kill(pid, SIGSTOP);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  kill(pid, SIGCONT);
  ASSERT_EQ(WaitForExit(pid, 60), 0) << ReadFile(err);

  const StoredRun stored = OnlyRun(db);
  EXPECT_EQ(stored.run.status, RunStatus::kOk);
  ExpectTrueFlatIntervals(stored.run);
  const IntervalSample* stall = nullptr;
  uint32_t spanned = 0;
  for (const IntervalSample& sample : stored.run.intervals) {
    if (sample.partial) continue;
    spanned += sample.spans;
    if (sample.spans > 1) {
      EXPECT_EQ(stall, nullptr) << "one stall, one merged sample";
      stall = &sample;
    }
  }
  ASSERT_NE(stall, nullptr) << "the stall is recorded as such";
  EXPECT_GE(stall->seconds(), 2.5);
  EXPECT_GE(stall->spans, 3u);
  EXPECT_EQ(spanned, 8u) << "the spans cover the run's 8 s";
  EXPECT_NE(
      ReadFile(out).find(std::to_string(stall->spans) + " intervals in one"),
      std::string::npos)
      << ReadFile(out);
  // The JSON document says the same.
  const nlohmann::json document = nlohmann::json::parse(ReadFile(doc));
  ASSERT_GT(document["intervals"].size(), stall->index);
  EXPECT_EQ(document["intervals"][stall->index]["spans"], stall->spans);
}

}  // namespace
}  // namespace flashmark::testing
