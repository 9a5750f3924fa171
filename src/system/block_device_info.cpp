#include "system/block_device_info.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>

#include "common/sysfs_text.h"

namespace flashmark {
namespace {

namespace fs = std::filesystem;

// The first of `names` that exists under `dir` and is not empty.
std::string FirstOf(const fs::path& dir,
                    std::initializer_list<const char*> names) {
  for (const char* name : names) {
    std::string value = ReadSysfsLine(dir / name);
    if (!value.empty()) return value;
  }
  return "";
}

// "none [mq-deadline] kyber" -> "mq-deadline"
std::string ActiveScheduler(const std::string& line) {
  const auto open = line.find('[');
  const auto close = line.find(']');
  if (open == std::string::npos || close == std::string::npos) return line;
  return line.substr(open + 1, close - open - 1);
}

// Entry names of a directory (no dot entries), sorted.
std::vector<std::string> Entries(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string Transport(const std::string& name, const fs::path& sys) {
  auto starts = [&name](const char* prefix) {
    return name.rfind(prefix, 0) == 0;
  };
  if (starts("nvme")) {
    const std::string kind = ReadSysfsLine(sys / "device" / "transport");
    return kind.empty() || kind == "pcie" ? "NVMe" : "NVMe/" + kind;
  }
  if (starts("loop")) return "loop";
  if (starts("md")) return "md";
  if (starts("dm-")) return "dm";
  if (starts("zram")) return "zram";
  if (starts("vd")) return "virtio";
  if (starts("nbd")) return "nbd";
  std::error_code error;
  const std::string real = fs::canonical(sys, error).string();
  if (real.find("/usb") != std::string::npos) return "USB";
  if (real.find("/ata") != std::string::npos) return "SATA";
  if (real.find("virtio") != std::string::npos) return "virtio";
  if (starts("sd")) return "SAS/SCSI";
  return "other";
}

// The device node: /dev/NAME, or /dev/mapper/NAME for a named dm device.
std::string NodePath(const std::string& name, const fs::path& sys) {
  const std::string dm_name = ReadSysfsLine(sys / "dm" / "name");
  if (!dm_name.empty()) {
    std::string mapper = "/dev/mapper/" + dm_name;
    std::error_code error;
    if (fs::exists(mapper, error)) return mapper;
  }
  return "/dev/" + name;
}

// What the device is built from or over: md level, dm name, loop file.
std::string Detail(const fs::path& sys) {
  std::string level = ReadSysfsLine(sys / "md" / "level");
  if (!level.empty()) return level;
  std::string dm_name = ReadSysfsLine(sys / "dm" / "name");
  if (!dm_name.empty()) return dm_name;
  return ReadSysfsLine(sys / "loop" / "backing_file");
}

void ReadQueue(const fs::path& disk, BlockDevice& device) {
  const fs::path queue = disk / "queue";
  device.logical_sector_size = ReadSysfsNumber(queue / "logical_block_size");
  device.physical_sector_size = ReadSysfsNumber(queue / "physical_block_size");
  device.rotational = ReadSysfsLine(queue / "rotational") == "1";
  device.scheduler = ActiveScheduler(ReadSysfsLine(queue / "scheduler"));
  device.nr_requests = static_cast<int>(ReadSysfsNumber(queue / "nr_requests"));
  device.write_cache = ReadSysfsLine(queue / "write_cache");
  device.io_poll = ReadSysfsLine(queue / "io_poll") == "1";
  device.discard_granularity = ReadSysfsNumber(queue / "discard_granularity");
  device.discard_max_bytes = ReadSysfsNumber(queue / "discard_max_bytes");
}

void ReadIdentity(const fs::path& disk, BlockDevice& device) {
  const fs::path hardware = disk / "device";
  device.model = FirstOf(hardware, {"model", "name"});
  device.serial = FirstOf(hardware, {"serial", "vpd_pg80"});
  if (device.serial.empty()) device.serial = ReadSysfsLine(disk / "serial");
  device.firmware = FirstOf(hardware, {"firmware_rev", "rev"});
  std::string node = FirstOf(hardware, {"numa_node", "device/numa_node"});
  device.numa_node = node.empty() ? -1 : std::atoi(node.c_str());
}

// A device number as the kernel's loop ioctl encodes it (huge_encode_dev).
dev_t DecodeKernelDevice(uint64_t encoded) {
  const unsigned major_number = (encoded & 0xfff00) >> 8;
  const unsigned minor_number = (encoded & 0xff) | ((encoded >> 12) & 0xfff00);
  return makedev(major_number, minor_number);
}

// What backs loop device `name`, attached (sysfs names a backing file);
// nullopt for other devices and detached loops.
std::optional<LoopBacking> ReadLoopBacking(const std::string& name,
                                           const fs::path& sys) {
  LoopBacking backing;
  backing.file = ReadSysfsLine(sys / "loop" / "backing_file");
  if (backing.file.empty()) return std::nullopt;
  const int fd = open(("/dev/" + name).c_str(),
                      O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd >= 0) {
    struct loop_info64 info {};
    if (ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
      backing.identified = true;
      backing.file_device = DecodeKernelDevice(info.lo_device);
      backing.inode = info.lo_inode;
      backing.block_device = DecodeKernelDevice(info.lo_rdevice);
    }
    close(fd);
  }
  struct stat st;
  if (!backing.identified && stat(backing.file.c_str(), &st) == 0 &&
      (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
    backing.identified = true;
    backing.file_device = st.st_dev;
    backing.inode = st.st_ino;
    backing.block_device = S_ISBLK(st.st_mode) ? st.st_rdev : 0;
  }
  return backing;
}

}  // namespace

std::optional<BlockDevice> ReadBlockDevice(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  std::error_code error;
  const fs::path sys = fs::canonical("/sys/class/block/" + name, error);
  if (error) return std::nullopt;
  unsigned major_number = 0, minor_number = 0;
  if (std::sscanf(ReadSysfsLine(sys / "dev").c_str(), "%u:%u", &major_number,
                  &minor_number) != 2) {
    return std::nullopt;
  }
  BlockDevice device;
  device.name = name;
  device.number = makedev(major_number, minor_number);
  device.path = NodePath(name, sys);
  const bool partition = fs::exists(sys / "partition", error);
  const fs::path disk = partition ? sys.parent_path() : sys;
  if (partition) device.parent = disk.filename().string();
  device.transport = Transport(disk.filename().string(), disk);
  device.capacity_bytes = ReadSysfsNumber(sys / "size") * 512;
  device.read_only = ReadSysfsLine(sys / "ro") == "1";
  ReadQueue(disk, device);
  ReadIdentity(disk, device);
  device.detail = Detail(sys);
  if (!partition) {
    for (const auto& entry : Entries(sys)) {
      if (fs::exists(sys / entry / "partition", error)) {
        device.partitions.push_back(entry);
      }
    }
  }
  device.holders = Entries(sys / "holders");
  device.members = Entries(sys / "slaves");
  if (!partition) device.backing = ReadLoopBacking(name, sys);
  return device;
}

std::optional<std::string> BlockDeviceName(dev_t number) {
  std::error_code error;
  const fs::path sys = fs::canonical(
      fmt::format("/sys/dev/block/{}:{}", major(number), minor(number)), error);
  if (error) return std::nullopt;
  return sys.filename().string();
}

std::optional<dev_t> BlockDeviceNumber(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  return st.st_rdev;
}

std::optional<std::string> KernelDeviceNode(dev_t number) {
  const auto name = BlockDeviceName(number);
  if (!name) return std::nullopt;
  const std::string node = "/dev/" + *name;
  struct stat st;
  if (lstat(node.c_str(), &st) != 0 || !S_ISBLK(st.st_mode) ||
      st.st_rdev != number) {
    return std::nullopt;
  }
  return node;
}

std::optional<BlockDevice> DescribeBlockDevice(TargetInfo& info) {
  if (info.device.empty()) return std::nullopt;
  const auto number = BlockDeviceNumber(info.device);
  if (!number) return std::nullopt;
  const auto name = BlockDeviceName(*number);
  if (!name) return std::nullopt;
  auto device = ReadBlockDevice(*name);
  if (device && device->is_partition())
    device = ReadBlockDevice(device->parent);
  if (!device) return std::nullopt;
  info.device_name = device->name;
  info.model = device->model;
  info.serial = device->serial;
  info.firmware = device->firmware;
  info.capacity_bytes = device->capacity_bytes;
  info.rotational = device->rotational;
  info.scheduler = device->scheduler;
  info.queue_depth = device->nr_requests;
  info.transport = device->transport;
  info.logical_sector_size = device->logical_sector_size;
  info.physical_sector_size = device->physical_sector_size;
  info.write_cache = device->write_cache;
  info.io_poll = device->io_poll;
  info.discard_granularity =
      device->discard_supported() ? device->discard_granularity : 0;
  info.numa_node = device->numa_node;
  return device;
}

}  // namespace flashmark
