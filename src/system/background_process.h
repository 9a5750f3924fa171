// A program started in the background by argv (never a shell), its
// stdout and stderr appended to a file, tied to this process: it receives
// `death_signal` when flashmark dies, even by kill -9 (PR_SET_PDEATHSIG),
// so a killed sweep never leaves workers writing to a device it resets.
// Its signal mask is cleared and SIGPIPE is default again (flashmark
// blocks its interrupt signals and ignores SIGPIPE: common/signals.h).
//
// Ownership: move-only; the destructor kills (SIGKILL) and reaps a
// program still running. Not thread-safe; poll from one thread.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <string>
#include <vector>

#include "common/result.h"

namespace flashmark {

class BackgroundProcess {
 public:
  // argv[0] must be an executable path (not searched in PATH).
  static Result<BackgroundProcess> Start(const std::vector<std::string>& argv,
                                         const std::string& output_path,
                                         int death_signal = SIGTERM);
  BackgroundProcess(BackgroundProcess&& other) noexcept;
  BackgroundProcess& operator=(BackgroundProcess&&) = delete;
  ~BackgroundProcess();

  // True once it ended (reaps it); never blocks.
  bool Poll();
  void Signal(int signal) const;
  // After Poll() returned true: the shell-style status (128 + N when
  // killed by signal N).
  int exit_code() const { return exit_code_; }

 private:
  explicit BackgroundProcess(pid_t pid) : pid_(pid) {}
  pid_t pid_ = -1;
  bool ended_ = false;
  int exit_code_ = -1;
};

}  // namespace flashmark
