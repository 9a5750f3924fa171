#include "system/mount_ledger.h"

#include <fmt/format.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>

#include "system/device_reset.h"

namespace flashmark {
namespace {

std::string DescribeMount(const MountEntry& mount) {
  return fmt::format("{} ({}, device {}:{}, mount id {})", mount.source,
                     mount.filesystem, major(mount.device), minor(mount.device),
                     mount.mount_id);
}

bool IsMount(const MadeMount& made, const MountEntry& entry) {
  return made.mount_id == entry.mount_id && made.device == entry.device &&
         made.mount_point == entry.mount_point;
}

}  // namespace

std::string ResolvedMountPoint(const std::string& path) {
  std::error_code error;
  auto resolved = std::filesystem::weakly_canonical(path, error);
  return error ? path : resolved.string();
}

Result<MadeMount> MountLedger::Record(const std::string& mount_point) {
  const std::string point = ResolvedMountPoint(mount_point);
  const auto top = TopMountAt(ReadMountTable(), point);
  if (!top) {
    return RuntimeError(fmt::format(
        "mount {}: the mount succeeded but nothing is mounted there now",
        point));
  }
  MadeMount made{point, top->source, top->mount_id,
                 static_cast<uint64_t>(top->device)};
  if (save_) {
    if (Status saved = save_(made, true); !saved.ok()) return saved.error();
  }
  made_.push_back(made);
  return made;
}

bool MountLedger::Made(const MountEntry& entry) const {
  return std::any_of(made_.begin(), made_.end(), [&](const MadeMount& made) {
    return IsMount(made, entry);
  });
}

Status MountLedger::CheckFree(const std::string& mount_point) const {
  const std::string point = ResolvedMountPoint(mount_point);
  const auto top = TopMountAt(ReadMountTable(), point);
  if (!top || Made(*top)) return OkStatus();
  return UsageError(
      fmt::format(
          "refusing to mount at {}: {} is mounted there, and this campaign did "
          "not mount it",
          point, DescribeMount(*top)),
      "flashmark unmounts only what it mounted itself: unmount it first (if "
      "it may go), or give the mount step another mount-point");
}

Status MountLedger::Forget(size_t index) {
  if (save_) {
    if (Status saved = save_(made_[index], false); !saved.ok()) return saved;
  }
  made_.erase(made_.begin() + static_cast<std::ptrdiff_t>(index));
  return OkStatus();
}

Status MountLedger::Release(const std::string& mount_point, std::ostream& log,
                            nlohmann::json& record) {
  const std::string point = ResolvedMountPoint(mount_point);
  for (size_t i = made_.size(); i-- > 0;) {
    const MadeMount made = made_[i];
    if (made.mount_point != point) continue;
    const std::vector<MountEntry> table = ReadMountTable();
    const auto top = TopMountAt(table, point);
    if (top && IsMount(made, *top)) {
      log << fmt::format("  reset: umount {} ({})\n", point, made.source);
      auto done = UnmountPoint(point);
      if (!done.ok()) return done.error();
      record.push_back(ToJson(*done));
      if (Status forgot = Forget(i); !forgot.ok()) return forgot;
      continue;
    }
    const bool still_there =
        std::any_of(table.begin(), table.end(),
                    [&](const auto& entry) { return IsMount(made, entry); });
    if (still_there) {
      log << fmt::format(
          "  note: not unmounting {}: the campaign's mount of {} there is "
          "covered by {}, which it did not mount\n",
          point, made.source,
          top ? DescribeMount(*top) : std::string("another mount"));
      continue;
    }
    log << fmt::format("  note: {} ({}) was unmounted by someone else\n", point,
                       made.source);
    if (Status forgot = Forget(i); !forgot.ok()) return forgot;
  }
  return OkStatus();
}

std::vector<std::string> MountLedger::MountPoints() const {
  std::vector<std::string> points;
  for (const auto& made : made_) points.push_back(made.mount_point);
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

}  // namespace flashmark
