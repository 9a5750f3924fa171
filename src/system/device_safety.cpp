#include "system/device_safety.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "system/external_command.h"
#include "system/mount_table.h"

namespace flashmark {
namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The target and its partitions: what a write to the target overwrites.
std::vector<const BlockDevice*> Overwritten(const DeviceInventory& inventory,
                                            const BlockDevice& target) {
  std::vector<const BlockDevice*> devices = {&target};
  for (const auto& name : target.partitions) {
    if (const BlockDevice* partition = inventory.Find(name)) {
      devices.push_back(partition);
    }
  }
  return devices;
}

// Devices built on `device` (holders, recursively) and their partitions.
std::vector<const BlockDevice*> BuiltOn(const DeviceInventory& inventory,
                                        const BlockDevice& device) {
  std::vector<const BlockDevice*> found;
  std::vector<std::string> queue = device.holders;
  std::vector<std::string> seen = {device.name};
  while (!queue.empty()) {
    const std::string name = queue.back();
    queue.pop_back();
    if (Contains(seen, name)) continue;
    seen.push_back(name);
    const BlockDevice* holder = inventory.Find(name);
    if (holder == nullptr) continue;
    found.push_back(holder);
    queue.insert(queue.end(), holder->holders.begin(), holder->holders.end());
    queue.insert(queue.end(), holder->partitions.begin(),
                 holder->partitions.end());
  }
  return found;
}

std::string MountText(const BlockDevice& device) {
  const MountEntry& mount = device.mounts.front();
  if (mount.mount_point == "[SWAP]") return "in use as swap";
  std::string text = "mounted at " + mount.mount_point;
  if (device.mounts.size() > 1) {
    text += fmt::format(" (and {} more)", device.mounts.size() - 1);
  }
  return text;
}

std::string SignatureText(const BlockDevice& device,
                          const DeviceSignature& signature) {
  if (signature.usage == "partition table") {
    return signature.type + " partition table";
  }
  if (signature.type == "LVM2_member")
    return "LVM physical volume (LVM2_member)";
  if (signature.type == "linux_raid_member") {
    return "md RAID member (linux_raid_member)";
  }
  if (signature.usage == "crypto")
    return signature.type + " (encrypted volume)";
  if (signature.type == "swap") {
    return device.mounts.empty() ? "swap area (not in use)"
                                 : "swap area in use";
  }
  if (!device.mounts.empty()) return signature.type + " " + MountText(device);
  return signature.type + " signature (not mounted)";
}

bool HasContentSignature(const BlockDevice& device) {
  for (const auto& signature : device.signatures) {
    if (signature.usage != "partition table") return true;
  }
  return false;
}

std::vector<std::string> Findings(const DeviceInventory& inventory,
                                  const BlockDevice& target) {
  std::vector<std::string> findings;
  for (const BlockDevice* device : Overwritten(inventory, target)) {
    const std::string& path = device->path;
    if (!device->probe_error.empty()) findings.push_back(device->probe_error);
    for (const auto& signature : device->signatures) {
      findings.push_back(path + ": " + SignatureText(*device, signature));
    }
    if (!device->mounts.empty() && !HasContentSignature(*device)) {
      const std::string& filesystem = device->mounts.front().filesystem;
      findings.push_back(fmt::format(
          "{}: {}{}", path, filesystem == "swap" ? "" : filesystem + " ",
          MountText(*device)));
    }
    for (const auto& name : device->holders) {
      const BlockDevice* holder = inventory.Find(name);
      const std::string detail = holder == nullptr ? "" : holder->detail;
      findings.push_back(fmt::format(
          "{}: member of {}{}", path, holder ? holder->path : "/dev/" + name,
          detail.empty() ? "" : " (" + detail + ")"));
    }
    for (const BlockDevice* above : BuiltOn(inventory, *device)) {
      if (above->mounts.empty()) continue;
      findings.push_back(fmt::format("{} (on {}): {} {}", above->path, path,
                                     above->mounts.front().filesystem,
                                     MountText(*above)));
    }
  }
  return findings;
}

// What the device holds, in a word: "xfs", "dos", "empty", "unreadable".
std::string ContentsBrief(const BlockDevice& target) {
  if (!target.probe_error.empty()) return "unreadable";
  if (!target.signatures.empty()) return target.signatures.front().type;
  if (!target.partitions.empty()) return "partitions";
  return target.probed ? "empty" : "not probed";
}

// "/ (the root filesystem)" -> "holds /"
std::string HoldsBrief(const std::string& what) {
  return "holds " + what.substr(0, what.find(" ("));
}

dev_t FilesystemDevice(const std::string& path) {
  struct stat st;
  std::string existing = path;
  if (stat(existing.c_str(), &st) != 0) {
    existing = std::filesystem::path(path).parent_path().string();
    if (existing.empty()) existing = ".";
    if (stat(existing.c_str(), &st) != 0) return 0;
  }
  if (major(st.st_dev) != 0) return st.st_dev;
  // An anonymous device number (btrfs): the mount's source names the disk.
  const auto mount = FindMountFor(existing);
  if (!mount) return 0;
  return BlockDeviceNumber(mount->source).value_or(0);
}

}  // namespace

std::string SafetyVerdict::Message(const std::string& device) const {
  if (verdict == WriteVerdict::kAllowed) return "";
  std::string text = fmt::format("refusing to write {}: {}", device, reason);
  if (findings.empty()) {
    return text + "; found no filesystem, partition table or RAID signature";
  }
  return fmt::format("{}; found {}", text, fmt::join(findings, "; "));
}

SafetyContext CaptureSafetyContext(const std::string& database_path) {
  SafetyContext context;
  AddProtectedPath(context, "/ (the root filesystem)", "/");
  const std::string own_path = ProgramPath();
  const std::string program_path = own_path.empty() ? "/proc/self/exe" : own_path;
  AddProtectedPath(context, "the program " + program_path, "/proc/self/exe");
  if (!database_path.empty()) {
    AddProtectedPath(context, "the database " + database_path, database_path);
  }
  return context;
}

void AddProtectedPath(SafetyContext& context, const std::string& what,
                      const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    context.protected_files.push_back({what, st.st_dev, st.st_ino});
  }
  const dev_t device = FilesystemDevice(path);
  if (device != 0) context.protected_paths.push_back({what, device});
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
    if (Contains(under, name)) continue;
    under.push_back(name);
    const BlockDevice* device = inventory.Find(name);
    if (device == nullptr) continue;
    if (device->is_partition()) queue.push_back(device->parent);
    queue.insert(queue.end(), device->members.begin(), device->members.end());
  }
  return under;
}

SafetyVerdict JudgeWrite(const DeviceInventory& inventory,
                         const BlockDevice& target, bool named,
                         const SafetyContext& context) {
  SafetyVerdict verdict;
  verdict.findings = Findings(inventory, target);
  for (const auto& protected_path : context.protected_paths) {
    if (Contains(DevicesUnder(inventory, protected_path.device), target.name)) {
      verdict.reason = "it holds " + protected_path.what;
      verdict.brief = HoldsBrief(protected_path.what);
      verdict.hint =
          "flashmark never writes the device holding /, the program or its "
          "results; choose another device";
      return verdict;
    }
  }
  for (const BlockDevice* device : Overwritten(inventory, target)) {
    bool mounted = !device->mounts.empty();
    for (const BlockDevice* above : BuiltOn(inventory, *device)) {
      mounted |= !above->mounts.empty();
    }
    if (mounted) {
      verdict.reason = "it is in use";
      verdict.brief = device->mounts.empty() ||
                              device->mounts.front().mount_point != "[SWAP]"
                          ? "mounted"
                          : "swap";
      verdict.hint =
          "unmount it first; flashmark never writes a mounted device";
      return verdict;
    }
  }
  for (const BlockDevice* device : Overwritten(inventory, target)) {
    if (!device->holders.empty()) {
      verdict.reason = "it is in use";
      verdict.brief = "member of " + device->holders.front();
      verdict.hint =
          "stop the array or volume built on it first (mdadm --stop, "
          "dmsetup remove, vgchange -an)";
      return verdict;
    }
  }
  if (target.read_only) {
    verdict.reason = "it is read-only";
    verdict.brief = "read-only";
    verdict.hint = "make it writable first (blockdev --setrw)";
    return verdict;
  }
  verdict.brief = ContentsBrief(target);
  if (!named) {
    verdict.verdict = WriteVerdict::kNeedsAllowDestroy;
    verdict.reason = "it is not named in --allow-destroy";
    verdict.hint = fmt::format(
        "if everything on it may be destroyed, add --allow-destroy={}",
        target.path);
    return verdict;
  }
  verdict.verdict = WriteVerdict::kAllowed;
  return verdict;
}

Status CheckDestroyAllowed(const std::string& device,
                           const std::vector<std::string>& allow_destroy,
                           const SafetyContext& context) {
  const auto number = BlockDeviceNumber(device);
  if (!number) {
    return UsageError(fmt::format("{} is not a block device", device),
                      "name a device node such as /dev/nvme0n1");
  }
  DeviceInventory inventory = ReadDeviceInventory(/*probe_signatures=*/false);
  if (inventory.Find(*number) == nullptr) {  // size 0: left out of the list
    const auto name = BlockDeviceName(*number);
    auto unlisted = name ? ReadBlockDevice(*name) : std::nullopt;
    if (!unlisted) {
      return UsageError(
          fmt::format("{}: the kernel lists no such block device", device));
    }
    inventory.devices.push_back(std::move(*unlisted));
  }
  const BlockDevice* found = inventory.Find(*number);
  std::vector<std::string> overwritten = found->partitions;
  overwritten.push_back(found->name);
  for (auto& listed : inventory.devices) {
    if (Contains(overwritten, listed.name)) ProbeSignatures(listed);
  }
  const BlockDevice& target = *inventory.Find(*number);
  bool named = false;
  for (const auto& allowed : allow_destroy) {
    named |= BlockDeviceNumber(allowed) == *number;
  }
  SafetyVerdict verdict = JudgeWrite(inventory, target, named, context);
  if (verdict.verdict == WriteVerdict::kAllowed) return OkStatus();
  // Name the device as the user did.
  std::string hint = verdict.hint;
  if (verdict.verdict == WriteVerdict::kNeedsAllowDestroy) {
    hint = fmt::format(
        "if everything on it may be destroyed, add --allow-destroy={}", device);
  }
  return UsageError(verdict.Message(device), hint);
}

}  // namespace flashmark
