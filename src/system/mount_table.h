// The kernel's mount table (/proc/self/mountinfo), parsed. Used to record
// the filesystem and mount options under a target and to refuse writes to
// mounted block devices. Reads /proc on each call; thread-safe.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace flashmark {

struct MountEntry {
  dev_t device = 0;           // major:minor of the mounted filesystem
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

}  // namespace flashmark
