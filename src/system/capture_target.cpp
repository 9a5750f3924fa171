#include "system/capture_target.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/sysfs_text.h"

namespace flashmark {
namespace {

namespace fs = std::filesystem;

// The capture's view of a block device number: its whole disk, and the
// range a partition covers on it; nullopt-like `ok` false for a device
// number that is no block device (major 0: tmpfs, overlayfs, btrfs
// subvolumes).
bool CaptureDeviceOfNumber(dev_t dev, CaptureDevice& out) {
  if (major(dev) == 0) return false;
  std::error_code error;
  const fs::path real = fs::canonical(
      fmt::format("/sys/dev/block/{}:{}", major(dev), minor(dev)), error);
  if (error) return false;
  out.name = real.filename().string();
  out.bytes = ReadSysfsNumber(real / "size") * 512;
  out.trace_dev = (major(dev) << 20) | minor(dev);
  out.first_sector = 0;
  out.sectors = 0;
  if (fs::exists(real / "partition")) {
    unsigned parent_major = 0, parent_minor = 0;
    if (std::sscanf(ReadSysfsLine(real.parent_path() / "dev").c_str(), "%u:%u",
                    &parent_major, &parent_minor) != 2) {
      return false;
    }
    out.trace_dev = (parent_major << 20) | parent_minor;
    out.first_sector = ReadSysfsNumber(real / "start");
    out.sectors = ReadSysfsNumber(real / "size");
  }
  return true;
}

std::string CaptureProcText(uint32_t pid, const char* file) {
  std::ifstream in(fmt::format("/proc/{}/{}", pid, file));
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

Result<CaptureDevice> CaptureDeviceAt(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    return UsageError(
        fmt::format("capture: {}: {}", path, std::strerror(errno)),
        "name a block device (/dev/sdb, /dev/nvme0n1p2), or --pid PID for "
        "a process's devices; `flashmark devices` lists them");
  }
  CaptureDevice device;
  if (!S_ISBLK(st.st_mode) || !CaptureDeviceOfNumber(st.st_rdev, device)) {
    return UsageError(
        fmt::format("capture: {} is not a block device", path),
        "name a block device (/dev/sdb, /dev/nvme0n1p2); for the IO of a "
        "file's process, --pid PID");
  }
  return device;
}

Result<CaptureProcess> CaptureProcessOf(const std::string& text) {
  uint32_t pid = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), pid);
  if (error != std::errc() || end != text.data() + text.size() || pid == 0) {
    return UsageError(fmt::format("--pid \"{}\" is not a process id", text),
                      "a number, as `pgrep NAME` prints it");
  }
  if (!CaptureProcessAlive(pid)) {
    return UsageError(fmt::format("--pid {}: no such process", pid),
                      "`pgrep NAME` finds a running program's pid");
  }
  CaptureProcess process;
  process.pid = pid;
  process.command = CaptureProcText(pid, "comm");
  const fs::path fds = fmt::format("/proc/{}/fd", pid);
  std::error_code listing;
  fs::directory_iterator it(fds, listing);
  if (listing) {
    return UsageError(
        fmt::format("--pid {}: cannot read its open files ({}): {}", pid,
                    fds.string(), listing.message()),
        "capture a process of yours, or run flashmark as root");
  }
  for (const auto& entry : it) {
    struct stat st {};
    if (stat(entry.path().c_str(), &st) != 0) continue;  // closed meanwhile
    dev_t dev = 0;
    if (S_ISBLK(st.st_mode)) {
      dev = st.st_rdev;
    } else if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
      dev = st.st_dev;
    } else {
      continue;  // pipes, sockets, character devices
    }
    CaptureDevice device;
    if (!CaptureDeviceOfNumber(dev, device)) continue;
    // The whole disk: the process's IO wherever it lands on it.
    if (device.first_sector != 0 || device.sectors != 0) {
      CaptureDevice disk;
      if (!CaptureDeviceOfNumber(
              makedev(device.trace_dev >> 20, device.trace_dev & 0xfffff),
              disk)) {
        continue;
      }
      device = disk;
    }
    const bool known =
        std::ranges::any_of(process.devices, [&device](const CaptureDevice& d) {
          return d.trace_dev == device.trace_dev;
        });
    if (!known) process.devices.push_back(device);
  }
  if (process.devices.empty()) {
    return UsageError(
        fmt::format("--pid {} ({}) has no open file on a block device (its "
                    "files are pipes, sockets or on tmpfs)",
                    pid, process.command),
        "capture the block device itself: flashmark capture /dev/NAME");
  }
  return process;
}

bool CaptureProcessAlive(uint32_t pid) {
  const std::string stat = CaptureProcText(pid, "stat");
  if (stat.empty()) return false;
  // "PID (COMM) STATE ...": the state follows the last ')'.
  const size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return false;
  const char state = stat[close + 2];
  return state != 'Z' && state != 'X';
}

std::vector<uint32_t> CaptureProcessThreads(uint32_t pid) {
  std::vector<uint32_t> threads{pid};
  std::error_code error;
  for (const auto& entry :
       fs::directory_iterator(fmt::format("/proc/{}/task", pid), error)) {
    const std::string name = entry.path().filename().string();
    uint32_t tid = 0;
    const auto [end, bad] =
        std::from_chars(name.data(), name.data() + name.size(), tid);
    if (bad == std::errc() && tid != pid) threads.push_back(tid);
  }
  return threads;
}

}  // namespace flashmark
