// The kernel's mount table (/proc/self/mountinfo), parsed. Used to record
// the filesystem and mount options under a target, to refuse writes to
// mounted block devices, and to know a mount a sweep made by its mount id
// (system/mount_ledger.h). Reads /proc on each call; thread-safe.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace flashmark {

struct MountEntry {
  // mountinfo's first two fields: unique among the mounts that exist now
  // (the kernel may give a freed id to a later mount).
  int64_t mount_id = 0;
  int64_t parent_id = 0;
  dev_t device = 0;  // major:minor of the mounted filesystem
  std::string mount_point;
  std::string mount_options;  // per-mount options ("rw,noatime")
  std::string filesystem;     // "ext4"
  std::string source;         // "/dev/vda"
  std::string super_options;  // filesystem options
};

std::vector<MountEntry> ReadMountTable();
// Undoes the octal escapes of /proc/self/mountinfo and /proc/swaps
// fields ("/mnt/my\040disk" -> "/mnt/my disk").
std::string UnescapeMountField(const std::string& field);
// Parses mountinfo text (exposed for tests).
std::vector<MountEntry> ParseMountInfo(const std::string& text);

// The mount holding `path` (longest mount-point prefix of its real path).
std::optional<MountEntry> FindMountFor(const std::string& path);

// The mount on top at exactly `mount_point` (a resolved path), the one
// that path reaches now when several are stacked there; none when nothing
// is mounted at that very point.
std::optional<MountEntry> TopMountAt(const std::vector<MountEntry>& table,
                                     const std::string& mount_point);

}  // namespace flashmark
