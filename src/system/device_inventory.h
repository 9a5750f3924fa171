// DeviceInventory: every block device the kernel lists (/sys/block and
// the partitions under each disk), each a BlockDevice from sysfs with what
// is on it: signatures found by libblkid (filesystems, partition tables,
// LVM physical volumes, md members) and where it is mounted
// (/proc/self/mountinfo) or used as swap (/proc/swaps).
//
// Signature probing is read-only (libblkid's low-level probe opens the
// device O_RDONLY and reads a few superblock locations), so it is safe on
// mounted and busy devices; it needs read permission on the device node,
// and when that is missing `probe_error` says so. Devices of size 0
// (unattached loop devices, empty zram) are left out.
//
// What lies underneath a device: a partition lies on its whole disk, a dm
// or md device on its members (sysfs slaves), a loop device on what backs
// it (BlockDevice::backing): a block device, or a regular file on the
// filesystem of some device. The kernel lists no holders for loop devices,
// so the methods below answer both directions from the backing records.
//
// A snapshot: devices come and go, so read a fresh one before each
// decision. Reads the system; thread-safe (no shared state).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "common/result.h"
#include "system/block_device_info.h"

namespace flashmark {

struct DeviceInventory {
  // Whole disks in natural name order ("loop2" before "loop10"), each
  // followed by its partitions.
  std::vector<BlockDevice> devices;
  int empty_devices = 0;  // size-0 devices left out

  // nullptr when absent.
  const BlockDevice* Find(const std::string& name) const;
  const BlockDevice* Find(dev_t number) const;

  // The block device backing loop device `loop` (a loop over /dev/loop3);
  // nullptr when a regular file backs it, or it is no loop device.
  const BlockDevice* BackingDevice(const BlockDevice& loop) const;
  // The device holding the filesystem whose files have st_dev `number`:
  // the device of that number, or (an anonymous number: btrfs) the device
  // a mount of that number is attached to. nullptr for tmpfs, NFS, ...
  const BlockDevice* HoldingFilesystem(dev_t number) const;
  // Loop devices backed by `device` itself or by a file on its filesystem.
  std::vector<const BlockDevice*> LoopsOn(const BlockDevice& device) const;
  // Loop devices backed by the regular file with this st_dev and st_ino.
  std::vector<const BlockDevice*> LoopsOnFile(dev_t file_device,
                                              ino_t inode) const;
};

// The kernel names of the devices a filesystem on device `number` lives
// on: that device, its members (recursively), what backs each loop device
// among them (its backing device, or the device holding its backing
// file's filesystem) and the whole disk of each partition among them.
// Empty when `number` is no device of the inventory. Pure.
std::vector<std::string> DevicesUnder(const DeviceInventory& inventory,
                                      dev_t number);

// Reads sysfs, the mount table and /proc/swaps; with `probe_signatures`
// also probes every device with libblkid.
DeviceInventory ReadDeviceInventory(bool probe_signatures = true);

// Probes `device` with libblkid and fills signatures / probe_error.
void ProbeSignatures(BlockDevice& device);

// The signatures on a device node (libblkid low-level probe, read-only),
// every one found, like `wipefs` lists them. An error when the device
// cannot be opened or read.
Result<std::vector<DeviceSignature>> ReadSignatures(const std::string& path);

// Attaches mount entries (and swap areas) to the devices they are on,
// matched by device number, or by source path when the mount's number is
// anonymous (btrfs). Exposed for tests.
void AttachMounts(const std::vector<MountEntry>& mounts,
                  std::vector<BlockDevice>& devices);

// Parses /proc/swaps text into entries with mount_point "[SWAP]" and
// filesystem "swap" (device numbers resolved by stat). Exposed for tests.
std::vector<MountEntry> ParseSwaps(const std::string& text);

// Orders kernel names naturally: "loop2" < "loop10", "sda" < "sdb".
bool NaturalLess(const std::string& a, const std::string& b);

}  // namespace flashmark
