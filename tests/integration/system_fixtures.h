// Root-only fixtures for integration tests: loop devices backed by sparse
// files in a test's temporary directory, tmpfs mounts, and running system
// tools (losetup, mkfs, mount) by argv, never through a shell. Every
// fixture undoes itself. Tests call RequireRoot() first: elsewhere they
// skip with a message.
#pragma once

#include <string>
#include <vector>

namespace flashmark::testing {

bool IsRoot();
// Runs argv[0] (searched in PATH) with arguments; returns its exit status
// and puts its combined output in `output` when given.
int RunTool(const std::vector<std::string>& argv,
            std::string* output = nullptr);

class LoopDevice {
 public:
  // Creates a sparse backing file of `bytes` at `backing_path` and attaches
  // it; `sector_size` 0 keeps the default (512). With `partition_table`
  // the file first gets an MBR with one Linux partition from 1 MiB to the
  // end, and the kernel scans it (losetup -P): partition(1) is its node.
  LoopDevice(const std::string& backing_path, uint64_t bytes,
             int sector_size = 0, bool partition_table = false);
  ~LoopDevice();
  bool ok() const { return !device_.empty(); }
  const std::string& device() const { return device_; }
  // "/dev/loop3p1" for partition 1.
  std::string partition(int number) const {
    return device_ + "p" + std::to_string(number);
  }

 private:
  std::string device_;
};

// A loop device over an existing file or block device, attached as it is
// (nothing created or truncated: stacked loops, a loop over a database);
// detached when done.
class LoopOver {
 public:
  explicit LoopOver(const std::string& backing);
  ~LoopOver();
  LoopOver(const LoopOver&) = delete;
  LoopOver& operator=(const LoopOver&) = delete;
  bool ok() const { return !device_.empty(); }
  const std::string& device() const { return device_; }

 private:
  std::string device_;
};

// mount DEVICE MOUNT_POINT (MOUNT_POINT must exist); unmounted when done.
class DeviceMount {
 public:
  DeviceMount(const std::string& device, const std::string& mount_point);
  ~DeviceMount();
  bool ok() const { return ok_; }

 private:
  std::string mount_point_;
  bool ok_ = false;
};

class TmpfsMount {
 public:
  TmpfsMount(const std::string& mount_point, const std::string& size);
  ~TmpfsMount();
  bool ok() const { return ok_; }

 private:
  std::string mount_point_;
  bool ok_ = false;
};

}  // namespace flashmark::testing

#define FLASHMARK_REQUIRE_ROOT()                                       \
  do {                                                                 \
    if (!::flashmark::testing::IsRoot()) {                             \
      GTEST_SKIP() << "needs root (loop devices, mounts); runs in CI"; \
    }                                                                  \
  } while (0)
