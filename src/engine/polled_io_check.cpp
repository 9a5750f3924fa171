#include "engine/polled_io_check.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>

#include "common/sysfs_text.h"

namespace flashmark {
namespace {

// Whether the disk under `st` (a file's filesystem, or a block device)
// polls; `name` is the target as the user wrote it.
Status CheckDevicePolls(const std::string& name, const struct stat& st) {
  namespace fs = std::filesystem;
  const dev_t device = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
  std::error_code ec;
  fs::path disk = fs::canonical(
      fmt::format("/sys/dev/block/{}:{}", major(device), minor(device)), ec);
  if (ec) {
    return UsageError(
        fmt::format("--hipri: {} is on no block device the kernel names "
                    "(device {}:{}: tmpfs, btrfs, overlayfs or a network "
                    "filesystem?), which cannot poll",
                    name, major(device), minor(device)),
        "run on an NVMe device or a filesystem directly on one, or drop "
        "--hipri");
  }
  // A partition has no queue of its own: its disk's is one level up.
  if (!fs::exists(disk / "queue", ec)) disk = disk.parent_path();
  if (ReadSysfsLine(disk / "queue" / "io_poll") == "1") return OkStatus();
  const std::string disk_name = disk.filename().string();
  return UsageError(
      fmt::format("--hipri: {} is on {}, which has no poll queues "
                  "(/sys/block/{}/queue/io_poll is not 1)",
                  name, disk_name, disk_name),
      "NVMe: give the driver poll queues (modprobe nvme poll_queues=4, or "
      "nvme.poll_queues=4 on the kernel command line) and check that file "
      "again; other devices cannot poll: drop --hipri");
}

}  // namespace

Status CheckPolledPaths(std::span<const std::string> targets) {
  for (const std::string& target : targets) {
    struct stat st {};
    if (stat(target.c_str(), &st) != 0) continue;  // the target check says
    if (Status polls = CheckDevicePolls(target, st); !polls.ok()) return polls;
  }
  return OkStatus();
}

Status CheckPolledIo(std::span<const IoFile> files) {
  for (const IoFile& file : files) {
    const std::string name = file.path.empty() ? "the target" : file.path;
    const int flags = fcntl(file.fd, F_GETFL);
    if (flags >= 0 && (flags & O_DIRECT) == 0) {
      return UsageError(
          fmt::format("--hipri: {} is not opened with O_DIRECT; polled IO "
                      "bypasses the page cache",
                      name),
          "add --direct");
    }
    struct stat st {};
    if (fstat(file.fd, &st) != 0) continue;  // the IO will say what is wrong
    if (Status polls = CheckDevicePolls(name, st); !polls.ok()) return polls;
  }
  return OkStatus();
}

}  // namespace flashmark
