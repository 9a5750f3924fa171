#include "system/background_process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/signals.h"

namespace flashmark {

Result<BackgroundProcess> BackgroundProcess::Start(
    const std::vector<std::string>& argv, const std::string& output_path,
    int death_signal) {
  if (argv.empty()) return UsageError("a background program needs a path");
  const int output = open(output_path.c_str(),
                          O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (output < 0) {
    return RuntimeError(
        fmt::format("cannot open {}: {}", output_path, std::strerror(errno)));
  }
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(output);
    return RuntimeError(
        fmt::format("cannot start {}: {}", argv[0], std::strerror(errno)));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    prctl(PR_SET_PDEATHSIG, death_signal);
    if (getppid() != parent) _exit(127);  // the parent died already
    DefaultSignalsForChild();
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, STDIN_FILENO);
    dup2(output, STDOUT_FILENO);
    dup2(output, STDERR_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  close(output);
  return BackgroundProcess(pid);
}

BackgroundProcess::BackgroundProcess(BackgroundProcess&& other) noexcept
    : pid_(other.pid_), ended_(other.ended_), exit_code_(other.exit_code_) {
  other.pid_ = -1;
}

BackgroundProcess::~BackgroundProcess() {
  if (pid_ > 0 && !ended_) {
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

bool BackgroundProcess::Poll() {
  if (ended_ || pid_ <= 0) return true;
  int status = 0;
  const pid_t done = waitpid(pid_, &status, WNOHANG);
  if (done != pid_) return false;
  ended_ = true;
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return true;
}

void BackgroundProcess::Signal(int signal) const {
  if (pid_ > 0 && !ended_) kill(pid_, signal);
}

}  // namespace flashmark
