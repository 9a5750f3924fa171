#include "system/external_command.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "common/units.h"

extern char** environ;

namespace flashmark {
namespace {

using Clock = std::chrono::steady_clock;

class Pipe {
 public:
  Pipe() {
    if (pipe2(fds_, O_CLOEXEC) != 0) fds_[0] = fds_[1] = -1;
  }
  ~Pipe() {
    CloseRead();
    CloseWrite();
  }
  bool ok() const { return fds_[0] >= 0; }
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void CloseRead() { Close(fds_[0]); }
  void CloseWrite() { Close(fds_[1]); }

 private:
  static void Close(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
  int fds_[2];
};

}  // namespace

std::string ExternalCommandResult::Outcome() const {
  if (timed_out) return "timed out after " + FormatDuration(elapsed);
  if (signal != 0) return fmt::format("killed by signal {}", signal);
  return fmt::format("exit status {}", exit_status);
}

std::string ExternalCommandResult::LastOutputLine() const {
  size_t end = output.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  size_t begin = output.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return output.substr(begin, end - begin + 1);
}

std::string ProgramPath() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  return length > 0 ? std::string(path, static_cast<size_t>(length)) : "";
}

std::string ExternalCommandResult::FailureText() const {
  const std::string said = LastOutputLine();
  return fmt::format("`{}` failed ({}){}", fmt::join(argv, " "), Outcome(),
                     said.empty() ? "" : ": " + said);
}

bool ProgramAvailable(const std::string& program) {
  if (program.empty()) return false;
  if (program.find('/') != std::string::npos) {
    return access(program.c_str(), X_OK) == 0;
  }
  const char* path = std::getenv("PATH");
  std::string directories = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= directories.size()) {
    size_t end = directories.find(':', start);
    if (end == std::string::npos) end = directories.size();
    std::string directory = directories.substr(start, end - start);
    if (directory.empty()) directory = ".";
    const std::string candidate = directory + "/" + program;
    struct stat info {};
    if (stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

namespace {

// Starts argv[0] (searched in PATH) with stdin /dev/null and, unless
// `output_fd` is -1, stdout and stderr on it; errors name the program.
Result<pid_t> Spawn(const std::vector<std::string>& argv, int output_fd) {
  if (argv.empty() || argv[0].empty()) {
    return UsageError("an external command needs at least a program name");
  }
  if (!ProgramAvailable(argv[0])) {
    return RuntimeError(fmt::format("{}: not found in PATH", argv[0]),
                        "install it (e.g. with apt-get) or fix PATH");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                   O_RDONLY, 0);
  if (output_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, output_fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output_fd, STDERR_FILENO);
  }
  // The child must not inherit flashmark's blocked interrupt signals nor
  // its ignored SIGPIPE (common/signals.h).
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  sigset_t defaulted;
  sigemptyset(&defaulted);
  sigaddset(&defaulted, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaulted);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0].c_str(), &actions, &attributes,
                                   args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    return RuntimeError(
        fmt::format("{}: cannot start: {}", argv[0], std::strerror(spawned)));
  }
  return pid;
}

// Waits for `pid` and records how it ended.
void Reap(pid_t pid, Clock::time_point start, ExternalCommandResult& result) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.elapsed = Clock::now() - start;
  if (WIFEXITED(status)) {
    result.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
}

}  // namespace

Result<ExternalCommandResult> RunExternal(const std::vector<std::string>& argv,
                                          std::chrono::nanoseconds timeout) {
  Pipe output;
  if (!output.ok()) {
    return RuntimeError(fmt::format("{}: cannot create a pipe: {}",
                                    argv.empty() ? "" : argv[0],
                                    std::strerror(errno)));
  }
  ExternalCommandResult result;
  result.argv = argv;
  const auto start = Clock::now();
  auto pid = Spawn(argv, output.write_end());
  if (!pid.ok()) return pid.error();
  output.CloseWrite();

  const auto deadline = start + timeout;
  char buffer[8192];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0) {
      kill(*pid, SIGKILL);
      result.timed_out = true;
      break;
    }
    pollfd wait_for{output.read_end(), POLLIN, 0};
    const int ready = poll(
        &wait_for, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = read(output.read_end(), buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // every writer closed: the program ended
    const size_t room =
        kMaxCapturedOutput - std::min(kMaxCapturedOutput, result.output.size());
    result.output.append(buffer,
                         std::min<size_t>(room, static_cast<size_t>(n)));
  }
  Reap(*pid, start, result);
  return result;
}

Result<ExternalCommandResult> RunAttached(
    const std::vector<std::string>& argv) {
  ExternalCommandResult result;
  result.argv = argv;
  const auto start = Clock::now();
  auto pid = Spawn(argv, -1);
  if (!pid.ok()) return pid.error();
  Reap(*pid, start, result);
  return result;
}

nlohmann::json ToJson(const ExternalCommandResult& result) {
  return {{"argv", result.argv},
          {"exit_status", result.exit_status},
          {"signal", result.signal},
          {"timed_out", result.timed_out},
          {"output", result.output},
          {"seconds", std::chrono::duration<double>(result.elapsed).count()}};
}

}  // namespace flashmark
