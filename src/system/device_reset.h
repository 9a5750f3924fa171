// Device reset operations for campaign cells: discard, secure erase, mkfs,
// mount and unmount, each by running the system's tool by argv (never a
// shell; see external_command.h). Each returns the record of what ran
// (ResetRecord: the method chosen and every command with its output and
// exit status) or an error naming the device, the command and the last
// line the tool printed.
//
// These functions do NOT check whether destroying a device is allowed:
// the caller checks --allow-destroy and the safety rules (device_safety.h)
// on a device number first, and gives them that device's kernel node
// (KernelDeviceNode: "/dev/sdb"), never a user's link, which could point
// elsewhere by the time the tool opens it. Blocking; thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"
#include "system/external_command.h"

namespace flashmark {

struct ResetRecord {
  std::string step;    // "discard", "secure-erase", "mkfs", "mount", ...
  std::string device;  // or the mount point for unmount
  std::string method;  // secure-erase: "nvme format --ses=1", ... else ""
  std::string note;    // why a weaker method was used, if it was
  std::vector<ExternalCommandResult> commands;
  // write-cache: the device's write cache after the step, as the kernel
  // reports it ("write back", "write through"); else "".
  std::string state = {};
};
nlohmann::json ToJson(const ResetRecord& record);

// blkdiscard of the whole device.
Result<ResetRecord> DiscardDevice(const std::string& device);

// The best erase the device offers, in this order: NVMe format with
// secure erase (nvme-cli), ATA security erase (hdparm, only when the
// drive reports security supported and not frozen), blkdiscard --secure,
// and, when none is offered, a plain discard with a note saying so.
Result<ResetRecord> SecureEraseDevice(const std::string& device);

// The device's volatile write cache on or off, where the device allows
// it (the SNIA PTS enterprise profile runs with it off):
//  - NVMe: Set Features, Volatile Write Cache (nvme-cli `set-feature
//    --feature-id=6`), not saved: a power cycle restores the default;
//  - SCSI, SAS and SATA disks: the kernel's scsi_disk cache_type, which
//    sends the drive a MODE SELECT of its caching page;
//  - virtio disks: their cache_type (where the host offers it).
// Other devices (loop, dm, md, zram) have no cache of their own to set:
// the record's note says so and the step succeeds, as it does when the
// device refuses (an NVMe drive without a volatile cache). `state` gives
// the cache as the kernel reports it afterwards.
Result<ResetRecord> SetWriteCache(const std::string& device, bool on);

// mkfs.<filesystem> OPTIONS... DEVICE.
Result<ResetRecord> MakeFilesystem(const std::string& device,
                                   const std::string& filesystem,
                                   const std::vector<std::string>& options);

// mount [-o A,B] DEVICE MOUNT_POINT, creating MOUNT_POINT when missing.
Result<ResetRecord> MountDevice(const std::string& device,
                                const std::string& mount_point,
                                const std::vector<std::string>& options);

// umount MOUNT_POINT.
Result<ResetRecord> UnmountPoint(const std::string& mount_point);

}  // namespace flashmark
