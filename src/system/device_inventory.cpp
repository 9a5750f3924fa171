#include "system/device_inventory.h"

#include <blkid/blkid.h>
#include <fmt/format.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace flashmark {
namespace {

std::string LookupValue(blkid_probe probe, const char* name) {
  const char* value = nullptr;
  size_t length = 0;
  if (blkid_probe_lookup_value(probe, name, &value, &length) != 0 ||
      value == nullptr) {
    return "";
  }
  return value;
}

}  // namespace

const BlockDevice* DeviceInventory::Find(const std::string& name) const {
  for (const auto& device : devices) {
    if (device.name == name) return &device;
  }
  return nullptr;
}

const BlockDevice* DeviceInventory::Find(dev_t number) const {
  for (const auto& device : devices) {
    if (device.number == number) return &device;
  }
  return nullptr;
}

const BlockDevice* DeviceInventory::BackingDevice(
    const BlockDevice& loop) const {
  if (!loop.backing || !loop.backing->is_block_device()) return nullptr;
  return Find(loop.backing->block_device);
}

const BlockDevice* DeviceInventory::HoldingFilesystem(dev_t number) const {
  if (major(number) != 0) return Find(number);
  for (const auto& device : devices) {
    for (const auto& mount : device.mounts) {
      if (mount.device == number) return &device;
    }
  }
  return nullptr;
}

std::vector<const BlockDevice*> DeviceInventory::LoopsOn(
    const BlockDevice& device) const {
  std::vector<const BlockDevice*> loops;
  for (const auto& loop : devices) {
    if (!loop.backing || !loop.backing->identified) continue;
    const LoopBacking& backing = *loop.backing;
    const bool on = backing.is_block_device()
                        ? backing.block_device == device.number
                        : HoldingFilesystem(backing.file_device) == &device;
    if (on) loops.push_back(&loop);
  }
  return loops;
}

std::vector<const BlockDevice*> DeviceInventory::LoopsOnFile(
    dev_t file_device, ino_t inode) const {
  std::vector<const BlockDevice*> loops;
  for (const auto& loop : devices) {
    if (!loop.backing || !loop.backing->identified ||
        loop.backing->is_block_device()) {
      continue;
    }
    if (loop.backing->file_device == file_device &&
        loop.backing->inode == inode) {
      loops.push_back(&loop);
    }
  }
  return loops;
}

std::vector<std::string> DevicesUnder(const DeviceInventory& inventory,
                                      dev_t number) {
  std::vector<std::string> under;
  const BlockDevice* start = inventory.Find(number);
  if (start == nullptr) return under;
  std::vector<std::string> queue = {start->name};
  while (!queue.empty()) {
    const std::string name = queue.back();
    queue.pop_back();
    if (std::find(under.begin(), under.end(), name) != under.end()) continue;
    under.push_back(name);
    const BlockDevice* device = inventory.Find(name);
    if (device == nullptr) continue;
    if (device->is_partition()) queue.push_back(device->parent);
    queue.insert(queue.end(), device->members.begin(), device->members.end());
    if (const BlockDevice* backing = inventory.BackingDevice(*device)) {
      queue.push_back(backing->name);
    } else if (device->backing && device->backing->identified) {
      const BlockDevice* holding =
          inventory.HoldingFilesystem(device->backing->file_device);
      if (holding != nullptr) queue.push_back(holding->name);
    }
  }
  return under;
}

bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool digit_a = std::isdigit(static_cast<unsigned char>(a[i]));
    const bool digit_b = std::isdigit(static_cast<unsigned char>(b[j]));
    if (digit_a && digit_b) {
      size_t end_a = i, end_b = j;
      while (end_a < a.size() &&
             std::isdigit(static_cast<unsigned char>(a[end_a])))
        ++end_a;
      while (end_b < b.size() &&
             std::isdigit(static_cast<unsigned char>(b[end_b])))
        ++end_b;
      const std::string run_a = a.substr(i, end_a - i);
      const std::string run_b = b.substr(j, end_b - j);
      if (run_a.size() != run_b.size()) return run_a.size() < run_b.size();
      if (run_a != run_b) return run_a < run_b;
      i = end_a;
      j = end_b;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

Result<std::vector<DeviceSignature>> ReadSignatures(const std::string& path) {
  errno = 0;
  std::unique_ptr<blkid_struct_probe, void (*)(blkid_probe)> probe(
      blkid_new_probe_from_filename(path.c_str()), blkid_free_probe);
  if (!probe) {
    const int error_number = errno != 0 ? errno : EIO;
    return RuntimeError(fmt::format("{}: cannot read its signatures: {}", path,
                                    std::strerror(error_number)));
  }
  blkid_probe_enable_superblocks(probe.get(), 1);
  blkid_probe_set_superblocks_flags(
      probe.get(), BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_LABEL |
                       BLKID_SUBLKS_UUID | BLKID_SUBLKS_MAGIC |
                       BLKID_SUBLKS_BADCSUM);
  blkid_probe_enable_partitions(probe.get(), 1);
  blkid_probe_set_partitions_flags(probe.get(), BLKID_PARTS_MAGIC);
  std::vector<DeviceSignature> found;
  int outcome = 0;
  // Each call returns the next signature of the enabled chains (wipefs).
  while ((outcome = blkid_do_probe(probe.get())) == 0) {
    DeviceSignature signature;
    signature.type = LookupValue(probe.get(), "TYPE");
    if (!signature.type.empty()) {
      signature.usage = LookupValue(probe.get(), "USAGE");
      signature.label = LookupValue(probe.get(), "LABEL");
      signature.uuid = LookupValue(probe.get(), "UUID");
    } else {
      signature.type = LookupValue(probe.get(), "PTTYPE");
      if (signature.type.empty()) continue;
      signature.usage = "partition table";
      signature.uuid = LookupValue(probe.get(), "PTUUID");
    }
    found.push_back(std::move(signature));
  }
  if (outcome < 0) {
    return RuntimeError(fmt::format("{}: cannot read its signatures", path));
  }
  return found;
}

void ProbeSignatures(BlockDevice& device) {
  auto signatures = ReadSignatures(device.path);
  device.probed = signatures.ok();
  if (signatures.ok()) {
    device.signatures = std::move(*signatures);
    device.probe_error.clear();
  } else {
    device.signatures.clear();
    device.probe_error = signatures.error().message;
  }
}

std::vector<MountEntry> ParseSwaps(const std::string& text) {
  std::vector<MountEntry> entries;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string file, type;
    if (!(fields >> file >> type) || type != "partition") continue;
    MountEntry entry;
    entry.source = UnescapeMountField(file);
    entry.mount_point = "[SWAP]";
    entry.filesystem = "swap";
    entry.device = BlockDeviceNumber(entry.source).value_or(0);
    entries.push_back(std::move(entry));
  }
  return entries;
}

void AttachMounts(const std::vector<MountEntry>& mounts,
                  std::vector<BlockDevice>& devices) {
  for (const auto& mount : mounts) {
    dev_t number = mount.device;
    if (major(number) == 0 && mount.source.rfind("/dev/", 0) == 0) {
      number = BlockDeviceNumber(mount.source).value_or(number);
    }
    if (major(number) == 0) continue;
    for (auto& device : devices) {
      if (device.number == number) device.mounts.push_back(mount);
    }
  }
}

DeviceInventory ReadDeviceInventory(bool probe_signatures) {
  DeviceInventory inventory;
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry :
       std::filesystem::directory_iterator("/sys/block", error)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end(), NaturalLess);
  for (const auto& name : names) {
    auto disk = ReadBlockDevice(name);
    if (!disk) continue;
    if (disk->capacity_bytes == 0) {
      ++inventory.empty_devices;
      continue;
    }
    std::vector<std::string> partitions = disk->partitions;
    std::sort(partitions.begin(), partitions.end(), NaturalLess);
    inventory.devices.push_back(std::move(*disk));
    for (const auto& partition : partitions) {
      if (auto device = ReadBlockDevice(partition)) {
        inventory.devices.push_back(std::move(*device));
      }
    }
  }
  std::vector<MountEntry> mounts = ReadMountTable();
  std::ifstream swaps_file("/proc/swaps");
  std::stringstream swaps;
  swaps << swaps_file.rdbuf();
  for (auto& swap : ParseSwaps(swaps.str())) mounts.push_back(std::move(swap));
  AttachMounts(mounts, inventory.devices);
  if (probe_signatures) {
    for (auto& device : inventory.devices) ProbeSignatures(device);
  }
  return inventory;
}

}  // namespace flashmark
