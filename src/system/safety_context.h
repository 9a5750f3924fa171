// SafetyContext: what flashmark must never write, besides mounted and
// held devices: the filesystems holding "/", the program, the results
// database and the --json output (each by the block device holding it),
// and those files themselves (by st_dev and st_ino: no loop device they
// back may be written). The device safety rules (device_safety.h) judge
// with it. Reads the system when captured; a plain value afterwards,
// cheap to copy. Thread-safe.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace flashmark {

// A path whose filesystem must never be written under it.
struct ProtectedPath {
  std::string what;  // "/ (the root filesystem)", "the database /x/f.db"
  dev_t device = 0;  // the block device holding its filesystem
};

// A file that must never back a loop device that is written.
struct ProtectedFile {
  std::string what;  // "the database /x/f.db"
  dev_t device = 0;  // st_dev
  ino_t inode = 0;   // st_ino
};

// Capture once and reuse: devices are resolved at each check.
struct SafetyContext {
  std::vector<ProtectedPath> protected_paths;
  std::vector<ProtectedFile> protected_files;
};

// Protects "/", the running program (/proc/self/exe) and, when not empty,
// the database at `database_path` (which may not exist yet: its directory
// counts) with its journal files (-wal, -shm, -journal) as they are now.
// Paths on no block device (tmpfs, NFS) protect no device, but an
// existing file still may not back a loop that is written.
SafetyContext CaptureSafetyContext(const std::string& database_path);

// Adds `path` (or its directory when it does not exist yet) described as
// `what` ("the --json output /x/r.json"): the device holding its
// filesystem, and the file itself when it exists as a regular file.
void AddProtectedPath(SafetyContext& context, const std::string& what,
                      const std::string& path);

}  // namespace flashmark
