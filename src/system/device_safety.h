// Device safety: the one rule set deciding whether flashmark may write to
// or reset (discard, mkfs, secure-erase) a block device. `flashmark run`
// (TargetSet), the sweep's reset steps and `flashmark devices` all judge
// with it.
//
// A write to block device D reaches D and what lies underneath it (see
// device_inventory.h), all the way down: all of a loop device's backing
// device (a loop over /dev/loop3 writes /dev/loop3), part of a
// partition's whole disk and of a dm/md device's members, and a loop
// device's backing file. Writing D is allowed only when all of these hold:
//   1. D, and every device whose whole the write reaches (D and each
//      device backing a loop on the way down), does not hold a protected
//      path: the root filesystem, the program itself, the results
//      database, the --json output (and whatever else the caller adds),
//      followed down through dm/md/LVM members, loop backings and from
//      partitions to their whole disks; and no loop on the way down is
//      backed by a protected file (the database, its journal, the --json
//      output, the program: same st_dev and st_ino) or by a file in a
//      system directory (/usr, /etc, ...: ProtectedSystemDirectory);
//   2. none of those devices, nor a partition of one, nor any device built
//      on them (dm, md, LVM, a loop backed by them) is mounted or in use
//      as swap; of a partition's disk or a dm/md member, the device itself
//      is not mounted;
//   3. none of those devices nor a partition of one is a member of an
//      md/dm/LVM device or backs a loop device (directly or as a file on
//      its filesystem), and no loop's backing file backs another loop --
//      the devices on the way down from D excepted;
//   4. D is not read-only;
//   5. D is named exactly (same device number) in --allow-destroy.
// Rules 1-4 cannot be overridden. The mount of the filesystem that merely
// holds a loop's backing file does not count: writing a loop backed by a
// plain file writes that file only. Every refusal names what was found,
// and the chain down to it:
//   refusing to write /dev/loop3: it is not named in --allow-destroy;
//   found /dev/loop3: xfs signature (not mounted)
//   refusing to write /dev/sdb: it is in use; found /dev/sdb1: xfs
//   mounted at /data
//   refusing to write /dev/loop5: it is backed by /dev/loop3, which is in
//   use; found /dev/loop3: ext4 mounted at /mnt/x
//   refusing to write /dev/loop6: it is backed by the database /x/f.db
// The kernel gets the last word: a run opens the device once, with
// O_EXCL, and judges the device it opened (by number), so a link flipped
// between check and open cannot redirect the write.
//
// JudgeWrite is pure (a synthetic inventory tests it); CheckDestroyAllowed
// reads the system. Thread-safe.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "common/result.h"
#include "system/device_inventory.h"
#include "system/safety_context.h"

namespace flashmark {

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

// Whether block device `number` may be written or reset now; `device` is
// its name as the user gave it, for messages only (it is not resolved
// again). Reads a fresh inventory, probes the device and its partitions,
// and applies the rules above with `allow_destroy` (its paths compared by
// device number, so the exact device must be named: /dev/sdb does not
// allow /dev/sdb1). OK, or a usage error (exit status 2) whose message
// says what was found and whose hint says what to do. Call it right
// before each destructive step, on the number of the device that step
// acts on (an open descriptor's st_rdev, or the number whose kernel node,
// KernelDeviceNode, the step is given): what is mounted changes.
// Thread-safe; blocks for the probe (milliseconds).
Status CheckDestroyAllowed(dev_t number, const std::string& device,
                           const std::vector<std::string>& allow_destroy,
                           const SafetyContext& context);

// The same for the device node `device` resolves to now (links such as
// /dev/disk/by-id/... are followed). Only for a check ahead of time: the
// path may point elsewhere by the time it is used.
Status CheckDestroyAllowed(const std::string& device,
                           const std::vector<std::string>& allow_destroy,
                           const SafetyContext& context);

}  // namespace flashmark
