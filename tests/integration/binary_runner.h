// Runs the flashmark binary as a user would (fork/exec, no shell) and
// captures its exit status, stdout and stderr; plus a temporary directory
// that removes itself. For integration tests only.
#pragma once

#include <string>
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

// Starts flashmark in the background; returns its pid (stdout/stderr to
// the given files).
int StartFlashmark(const std::vector<std::string>& args,
                   const std::string& out_path, const std::string& err_path);
// Waits for a started process; returns its exit code as above.
int WaitFlashmark(int pid);

std::string ReadFile(const std::string& path);

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
