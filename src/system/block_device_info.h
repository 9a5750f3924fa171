// Facts about one block device from sysfs (/sys/class/block/NAME): model,
// serial, firmware, capacity, sector sizes, rotational, transport, queue
// settings (scheduler, nr_requests, write cache, discard), NUMA node, and
// its place among other devices (partitions, holders, members, and for a
// loop device what backs it). For a partition the identity and queue facts
// are its whole disk's; its size is its own. Missing facts stay empty
// (virtio disks have no model; loop devices no serial). Reads sysfs; for
// an attached loop device also asks the kernel (LOOP_GET_STATUS64 on a
// read-only descriptor of its node) which file backs it. Thread-safe.
//
// BlockDevice is the one record of a device: DeviceInventory adds what is
// on it (signatures, mounts), the safety rules judge it, `flashmark
// devices` prints it, and DescribeBlockDevice copies it into the
// TargetInfo recorded with every run.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/environment.h"
#include "system/mount_table.h"

namespace flashmark {

// A signature libblkid found on a device ("xfs", "dos", "LVM2_member").
struct DeviceSignature {
  std::string type;   // "xfs", "ext4", "dos", "gpt", "LVM2_member"
  std::string usage;  // "filesystem", "partition table", "raid", "crypto", ...
  std::string label;
  std::string uuid;
};

// What backs a loop device: a regular file, or a block device node (a
// loop over /dev/loop3, /dev/sdb1, ...). The identity comes from the
// kernel (the file the loop holds open, even when renamed or deleted);
// when it cannot be asked (no permission to open the node) from a stat of
// `file`.
struct LoopBacking {
  std::string file;         // as the kernel names it: "/x/img", "/dev/loop3"
  bool identified = false;  // the fields below are known
  dev_t file_device = 0;    // st_dev: the filesystem holding the file
  ino_t inode = 0;          // st_ino
  dev_t block_device = 0;   // st_rdev of a block device node; 0 for a file
  bool is_block_device() const { return block_device != 0; }
};

struct BlockDevice {
  std::string name;    // kernel name: "sda", "nvme0n1p2", "dm-0", "loop3"
  std::string path;    // device node: "/dev/sda"; "/dev/mapper/NAME" for dm
  dev_t number = 0;    // major:minor
  std::string parent;  // a partition's whole disk ("sda"); empty for disks
  // "NVMe", "SATA", "SAS/SCSI", "USB", "virtio", "loop", "md", "dm",
  // "zram", "other".
  std::string transport;
  std::string model;
  std::string serial;
  std::string firmware;
  uint64_t capacity_bytes = 0;
  uint32_t logical_sector_size = 0;
  uint32_t physical_sector_size = 0;
  bool rotational = false;
  bool read_only = false;
  std::string scheduler;  // the active one: "mq-deadline", "none"
  int nr_requests = 0;
  std::string write_cache;  // "write back", "write through"; "" unknown
  bool io_poll = false;     // queue/io_poll: polled IO (--hipri) possible
  uint64_t discard_granularity = 0;
  uint64_t discard_max_bytes = 0;  // 0: no discard
  int numa_node = -1;              // -1: none or unknown
  std::string detail;              // "raid0" (md), dm name, loop backing file
  std::vector<std::string> partitions;  // kernel names, disks only
  std::vector<std::string> holders;     // built on this one (dm, md)
  std::vector<std::string> members;     // this one is built on (slaves)
  // Attached loop devices only (the kernel lists no holder or member for
  // them: what lies under a loop is known from this alone).
  std::optional<LoopBacking> backing;

  // Filled by the inventory (device_inventory.h), not from sysfs:
  bool probed = false;                      // signatures were read
  std::string probe_error;                  // why they could not be
  std::vector<DeviceSignature> signatures;  // libblkid, in probe order
  std::vector<MountEntry> mounts;           // incl. swap ("[SWAP]")

  bool is_partition() const { return !parent.empty(); }
  bool discard_supported() const { return discard_max_bytes > 0; }
};

// Reads the device with kernel name `name`; nullopt when sysfs has none.
std::optional<BlockDevice> ReadBlockDevice(const std::string& name);

// The kernel name of block device `number` (via /sys/dev/block/MAJ:MIN);
// nullopt when it is not a block device the kernel knows.
std::optional<std::string> BlockDeviceName(dev_t number);

// The device number of block device node `path` (following links, so
// /dev/disk/by-id/... works); nullopt when it is not a block device.
std::optional<dev_t> BlockDeviceNumber(const std::string& path);

// The kernel's node of block device `number`: "/dev/" + its kernel name,
// checked (lstat: no link followed) to be a block device node of that
// very number; nullopt otherwise. External tools given this path act on
// the device that was judged, not on wherever a user's link points now.
std::optional<std::string> KernelDeviceNode(dev_t number);

// Fills the TargetInfo disk facts (device_name, model, serial, firmware,
// capacity, rotational, transport, sector sizes, scheduler, queue depth,
// write cache, discard, NUMA node) of the whole disk under `info.device`
// ("/dev/vda", "/dev/nvme0n1p2", "/dev/mapper/x") and returns that disk;
// no-op and nullopt when unknown.
std::optional<BlockDevice> DescribeBlockDevice(TargetInfo& info);

}  // namespace flashmark
