// Running external programs (mkfs, mount, blkdiscard, nvme, smartctl, a
// campaign's exec steps): always an argv vector searched in PATH, never a
// shell. The program's stdout and stderr are captured together (the first
// kMaxCapturedOutput bytes are kept), its exit status or signal recorded,
// so a sweep can store exactly what ran and what it said.
//
// Threading: RunExternal blocks the calling thread until the program ends
// or `timeout` passes (then it is killed with SIGKILL). Safe to call from
// several threads. stdin is /dev/null.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"

namespace flashmark {

inline constexpr size_t kMaxCapturedOutput = size_t{64} * 1024;

struct ExternalCommandResult {
  std::vector<std::string> argv;
  int exit_status = -1;    // when it exited; -1 when killed by a signal
  int signal = 0;          // the signal that ended it, else 0
  bool timed_out = false;  // killed after the timeout
  std::string output;      // stdout and stderr interleaved, truncated
  std::chrono::nanoseconds elapsed{0};

  bool succeeded() const { return exit_status == 0 && signal == 0; }
  // "exit status 1", "killed by signal 9", "timed out after 10m".
  std::string Outcome() const;
  // The last non-empty line of output, for one-line error messages.
  std::string LastOutputLine() const;
  // "`mkfs.xfs -f /dev/x` failed (exit status 1): its last line".
  std::string FailureText() const;
};

// Runs argv[0] (searched in PATH) with the rest as arguments. A program
// that cannot be started (not installed, not executable) is an error
// naming it; one that runs and fails is a result with its status.
Result<ExternalCommandResult> RunExternal(
    const std::vector<std::string>& argv,
    std::chrono::nanoseconds timeout = std::chrono::hours(24));

// As RunExternal without a timeout, but the program's stdout and stderr
// are this process's: what it prints is seen as it comes (a sweep cell's
// live lines), and `output` stays empty.
Result<ExternalCommandResult> RunAttached(const std::vector<std::string>& argv);

// The running program's own path (/proc/self/exe resolved); empty when
// it cannot be read.
std::string ProgramPath();

// Whether `program` is found in PATH (or is an executable path).
bool ProgramAvailable(const std::string& program);

// {"argv": [...], "exit_status": N, "signal": N, "timed_out": b,
//  "output": "...", "seconds": s}: the record kept with a run or a cell.
nlohmann::json ToJson(const ExternalCommandResult& result);

}  // namespace flashmark
