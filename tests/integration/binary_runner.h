// Runs the flashmark binary as a user would (fork/exec, no shell) and
// captures its exit status, stdout and stderr; plus a temporary directory
// that removes itself. For integration tests only.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace flashmark::testing {

struct Invocation {
  int exit_code = -1;  // 128 + N when killed by signal N
  std::string out;
  std::string err;
};

// Runs flashmark with `args`; waits at most `timeout_seconds`.
Invocation RunFlashmark(const std::vector<std::string>& args,
                        int timeout_seconds = 60);

// Runs `argv` (a program and its arguments, the program found in PATH)
// as RunFlashmark runs flashmark: mpirun, for the cluster tests.
Invocation RunProgram(const std::vector<std::string>& argv,
                      int timeout_seconds = 60);
// Starts `argv` in the background as StartFlashmark does.
int StartProgram(const std::vector<std::string>& argv,
                 const std::string& out_path, const std::string& err_path);

// Starts flashmark in the background; returns its pid (stdout/stderr to
// the given files).
int StartFlashmark(const std::vector<std::string>& args,
                   const std::string& out_path, const std::string& err_path);
// Waits for a started process; returns its exit code as above.
int WaitFlashmark(int pid);
// A started process's exit code as above once it has ended (reaped now),
// nullopt while it runs.
std::optional<int> ExitCodeIfEnded(int pid);

std::string ReadFile(const std::string& path);
// Replaces `path` with `text`.
void WriteText(const std::string& path, const std::string& text);
// How many entries the directory holds.
size_t DirectoryEntries(const std::string& path);
// The path of an importer fixture: tests/fixtures/import/NAME.
std::string ImportFixture(const std::string& name);

// Polls `done` (every 10 ms) until it holds or `seconds` pass; whether it
// held. For waiting on a condition instead of sleeping and hoping.
template <typename Predicate>
bool WaitFor(Predicate done, int seconds) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// The database every run of this test process uses unless a test passes
// --db or sets FLASHMARK_DB (a temporary directory removed at exit).
const std::string& TestDatabasePath();

class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace flashmark::testing
