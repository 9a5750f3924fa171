#include "system_fixtures.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>

namespace flashmark::testing {

bool IsRoot() { return geteuid() == 0; }

int RunTool(const std::vector<std::string>& argv, std::string* output) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], 1);
    dup2(pipe_fds[1], 2);
    close(pipe_fds[0]);
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) {
    text.append(buffer, n);
  }
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (output != nullptr) *output = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

namespace {

// A DOS (MBR) partition table with one Linux partition (type 0x83) from
// sector 2048 to the end, written into the first sector of `fd`.
bool WriteMbr(int fd, uint64_t bytes) {
  unsigned char sector[512] = {};
  const uint32_t first = 2048;
  const uint32_t count = static_cast<uint32_t>(bytes / 512) - first;
  unsigned char* entry = sector + 446;
  entry[4] = 0x83;
  for (int i = 0; i < 4; ++i) {
    entry[8 + i] = static_cast<unsigned char>(first >> (8 * i));
    entry[12 + i] = static_cast<unsigned char>(count >> (8 * i));
  }
  sector[510] = 0x55;
  sector[511] = 0xaa;
  return pwrite(fd, sector, sizeof sector, 0) == sizeof sector;
}

}  // namespace

LoopDevice::LoopDevice(const std::string& backing_path, uint64_t bytes,
                       int sector_size, bool partition_table) {
  const int fd = open(backing_path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || ftruncate(fd, bytes) != 0) return;
  const bool written = !partition_table || WriteMbr(fd, bytes);
  close(fd);
  if (!written) return;
  std::vector<std::string> argv = {"losetup", "--find", "--show"};
  if (partition_table) argv.push_back("--partscan");
  if (sector_size != 0) {
    argv.push_back("--sector-size");
    argv.push_back(std::to_string(sector_size));
  }
  argv.push_back(backing_path);
  std::string output;
  if (RunTool(argv, &output) != 0) return;
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) {
    output.pop_back();
  }
  device_ = output;
  // The kernel adds the partition nodes as it scans; wait for them.
  for (int i = 0;
       partition_table && i < 100 && access(partition(1).c_str(), F_OK) != 0;
       ++i) {
    usleep(20000);
  }
}

LoopDevice::~LoopDevice() {
  if (!device_.empty()) RunTool({"losetup", "--detach", device_});
}

LoopOver::LoopOver(const std::string& backing) {
  std::string output;
  if (RunTool({"losetup", "--find", "--show", backing}, &output) != 0) return;
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) {
    output.pop_back();
  }
  device_ = output;
}

LoopOver::~LoopOver() {
  if (!device_.empty()) RunTool({"losetup", "--detach", device_});
}

DeviceMount::DeviceMount(const std::string& device,
                         const std::string& mount_point)
    : mount_point_(mount_point) {
  ok_ = RunTool({"mount", device, mount_point}) == 0;
}

DeviceMount::~DeviceMount() {
  if (ok_) RunTool({"umount", mount_point_});
}

TmpfsMount::TmpfsMount(const std::string& mount_point, const std::string& size)
    : mount_point_(mount_point) {
  ok_ = RunTool({"mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs",
                 mount_point}) == 0;
}

TmpfsMount::~TmpfsMount() {
  if (ok_) RunTool({"umount", mount_point_});
}

}  // namespace flashmark::testing
