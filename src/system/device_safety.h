// Device safety: the one rule set deciding whether flashmark may write to
// or reset (discard, mkfs, secure-erase) a block device. `flashmark run`
// (TargetSet), the sweep's reset steps and `flashmark devices` all judge
// with it.
//
// Writing block device D is allowed only when all of these hold:
//   1. D does not hold a protected path: the root filesystem, the program
//      itself, the results database (and whatever else the caller adds),
//      followed down through dm/md/LVM members and from partitions to
//      their whole disks;
//   2. neither D, nor a partition of D, nor any device built on them
//      (dm, md, LVM) is mounted or in use as swap;
//   3. neither D nor a partition of D is a member of an md/dm/LVM device
//      (it has holders);
//   4. D is not read-only;
//   5. D is named exactly (same device) in --allow-destroy.
// Rules 1-4 cannot be overridden. Every refusal names what was found, e.g.
//   refusing to write /dev/loop3: it is not named in --allow-destroy;
//   found /dev/loop3: xfs signature (not mounted)
//   refusing to write /dev/sdb: it is in use; found /dev/sdb1: xfs
//   mounted at /data
// The kernel gets the last word: devices are then opened with O_EXCL.
//
// JudgeWrite is pure (a synthetic inventory tests it); CheckDestroyAllowed
// reads the system. Thread-safe.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "common/result.h"
#include "system/device_inventory.h"

namespace flashmark {

// A path whose filesystem must never be written under it.
struct ProtectedPath {
  std::string what;  // "/ (the root filesystem)", "the database /x/f.db"
  dev_t device = 0;  // the block device holding its filesystem
};

// What must never be written, besides mounted and held devices. Cheap
// to copy; capture once and reuse: devices are resolved at each check.
// A file that must never be written as a target (the same shape as
// main's system/safety_context.h, which also keeps it from backing a
// written loop device).
struct ProtectedFile {
  std::string what;  // "the database /x/f.db"
  dev_t device = 0;  // st_dev
  ino_t inode = 0;   // st_ino
};

struct SafetyContext {
  std::vector<ProtectedPath> protected_paths;
  std::vector<ProtectedFile> protected_files;
};

// Protects "/", the running program (/proc/self/exe) and, when not empty,
// the database at `database_path` (which may not exist yet: its directory
// counts). Paths on no block device (tmpfs, NFS) protect nothing.
SafetyContext CaptureSafetyContext(const std::string& database_path);

// Adds `path` (or its directory when it does not exist yet) described as
// `what` ("the --json output /x/r.json"): the device holding its
// filesystem, and the file itself when it exists as a regular file.
void AddProtectedPath(SafetyContext& context, const std::string& what,
                      const std::string& path);

enum class WriteVerdict {
  kRefused,            // rules 1-4: never, whatever --allow-destroy says
  kNeedsAllowDestroy,  // writable once named in --allow-destroy
  kAllowed,            // named, and nothing forbids it
};

struct SafetyVerdict {
  WriteVerdict verdict = WriteVerdict::kRefused;
  std::string reason;  // "it is in use", "it holds / (the root filesystem)"
  std::string brief;   // for tables: "mounted", "holds /", "xfs", "empty"
  std::string hint;    // what to do about it
  // What is on the device and its partitions, and what uses them:
  // "/dev/loop3p1: xfs mounted at /data", "/dev/loop3: dos partition table".
  std::vector<std::string> findings;

  // "refusing to write DEVICE: REASON; found FINDING; FINDING"
  std::string Message(const std::string& device) const;
};

// Judges writing `target` (a device of `inventory`, which should have
// the signatures of the target and its partitions probed). `named`: the
// target is named in --allow-destroy. Pure.
SafetyVerdict JudgeWrite(const DeviceInventory& inventory,
                         const BlockDevice& target, bool named,
                         const SafetyContext& context);

// The kernel names of the devices a filesystem on device `number` lives
// on: that device, its members (recursively) and the whole disk of each
// partition among them. Empty when `number` is no device of the
// inventory. Pure.
std::vector<std::string> DevicesUnder(const DeviceInventory& inventory,
                                      dev_t number);

// Whether `device` (a block device path; links such as /dev/disk/by-id/...
// are followed) may be written or reset now. Reads a fresh inventory,
// probes the device and its partitions, and applies the rules above with
// `allow_destroy` (paths compared by device number, so the exact device
// must be named: /dev/sdb does not allow /dev/sdb1). OK, or a usage error
// (exit status 2) whose message says what was found and whose hint says
// what to do. Call it right before each destructive step: what is mounted
// changes. Thread-safe; blocks for the probe (milliseconds).
Status CheckDestroyAllowed(const std::string& device,
                           const std::vector<std::string>& allow_destroy,
                           const SafetyContext& context);

}  // namespace flashmark
