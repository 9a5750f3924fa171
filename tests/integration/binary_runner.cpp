#include "binary_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace flashmark::testing {

namespace {

std::vector<std::string> WithFlashmark(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {FLASHMARK_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace

const std::string& TestDatabasePath() {
  static TempDir directory;
  static const std::string path = directory.File("flashmark.db");
  return path;
}

int StartFlashmark(const std::vector<std::string>& args,
                   const std::string& out_path, const std::string& err_path) {
  return StartProgram(WithFlashmark(args), out_path, err_path);
}

int StartProgram(const std::vector<std::string>& args,
                 const std::string& out_path, const std::string& err_path) {
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  // Made here, not in the child: a child's first call would create the
  // directory after the fork, and nothing would ever remove it.
  const std::string& database = TestDatabasePath();
  const pid_t pid = fork();
  if (pid == 0) {
    // A fresh child: signals unblocked and default, in its own group.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    setpgid(0, 0);
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    // Runs go to a database of this test process, never the cwd's.
    setenv("FLASHMARK_DB", database.c_str(), 0);
    const int null_in = open("/dev/null", O_RDONLY);
    dup2(null_in, 0);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

int WaitFlashmark(int pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

std::optional<int> ExitCodeIfEnded(int pid) {
  int status = 0;
  if (waitpid(pid, &status, WNOHANG) != pid) return std::nullopt;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

size_t DirectoryEntries(const std::string& path) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    (void)entry;
    ++count;
  }
  return count;
}

std::string ImportFixture(const std::string& name) {
  return std::string(FLASHMARK_SOURCE_DIR) + "/tests/fixtures/import/" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Invocation RunFlashmark(const std::vector<std::string>& args,
                        int timeout_seconds) {
  return RunProgram(WithFlashmark(args), timeout_seconds);
}

Invocation RunProgram(const std::vector<std::string>& argv,
                      int timeout_seconds) {
  TempDir capture;
  const std::string out = capture.File("out"), err = capture.File("err");
  const int pid = StartProgram(argv, out, err);
  Invocation result;
  for (int waited_ms = 0;; waited_ms += 10) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      result.exit_code =
          WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      break;
    }
    if (waited_ms > timeout_seconds * 1000) {
      kill(-pid, SIGKILL);  // its whole group (mpirun and its ranks)
      waitpid(pid, &status, 0);
      result.exit_code = -1;
      break;
    }
    usleep(10000);
  }
  result.out = ReadFile(out);
  result.err = ReadFile(err);
  return result;
}

TempDir::TempDir() {
  std::string pattern = "/tmp/flashmark-test.XXXXXX";
  path_ = mkdtemp(pattern.data());
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace flashmark::testing
