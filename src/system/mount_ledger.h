// MountLedger: the mounts a campaign's mount steps made and have not
// undone yet, so that a sweep unmounts those and nothing else. A mount is
// known by its mount id (the first field of /proc/self/mountinfo) and the
// device number of what it mounted, never by its path alone: before
// unmounting, the mount on top of the point must still be that one. What
// else is mounted at a campaign's mount point (the user's tmpfs, a mount
// stacked on the campaign's) is never unmounted: CheckFree() names it, so
// the sweep refuses the mount step before any destructive step.
//
// Every change goes to `save` as it happens (the sweep keeps the ledger in
// its campaign store, so a resumed sweep undoes what a killed one left).
// Mount points are resolved paths (weakly canonical, as mountinfo shows
// them). Not thread-safe; Release() blocks on umount.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "system/mount_table.h"

namespace flashmark {

struct MadeMount {
  std::string mount_point;  // resolved
  std::string source;  // what was mounted ("/dev/loop3"), as mountinfo says
  int64_t mount_id = 0;
  uint64_t device = 0;  // dev_t of the mounted filesystem
};

// `path` resolved as far as it exists (symlinks, "..").
std::string ResolvedMountPoint(const std::string& path);

class MountLedger {
 public:
  // Called with (mount, true) once a mount is recorded and (mount, false)
  // once it is undone or found gone; an error stops the step that made
  // the change.
  using Save = std::function<Status(const MadeMount& mount, bool made)>;

  MountLedger() = default;  // nothing made, nothing saved
  MountLedger(std::vector<MadeMount> made, Save save)
      : made_(std::move(made)), save_(std::move(save)) {}

  // Records the mount now on top of `mount_point` as made by the campaign
  // (call it right after a mount step's `mount` succeeded).
  Result<MadeMount> Record(const std::string& mount_point);

  // Whether `entry` is a mount the campaign made (same id and device).
  bool Made(const MountEntry& entry) const;

  // OK when nothing is mounted at `mount_point`, or what is on top there
  // is the campaign's own mount; else an error naming what is mounted
  // (filesystem, source, mount id) and saying it was not the campaign's.
  Status CheckFree(const std::string& mount_point) const;

  // Unmounts the campaign's mount at `mount_point` when it is still the
  // one on top there; forgets it when it is gone (unmounted by someone
  // else); leaves it, with a note in `log`, when another mount covers it.
  // Each umount run is appended to `record` (ResetRecord JSON).
  Status Release(const std::string& mount_point, std::ostream& log,
                 nlohmann::json& record);

  // The campaign's mount points, sorted, each once.
  std::vector<std::string> MountPoints() const;
  const std::vector<MadeMount>& made() const { return made_; }

 private:
  Status Forget(size_t index);
  std::vector<MadeMount> made_;
  Save save_;
};

}  // namespace flashmark
