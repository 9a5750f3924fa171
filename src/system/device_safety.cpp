#include "system/device_safety.h"

#include <fmt/format.h>

#include <algorithm>

#include "system/file_set.h"

namespace flashmark {
namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A device a write to the target reaches: the target and what lies
// underneath it.
struct Layer {
  const BlockDevice* device = nullptr;
  // The write may reach all of it (the target; a loop's backing device),
  // or only its own part (a partition's whole disk, a dm/md member):
  // then the device's other users (sibling partitions and volumes) are
  // not overwritten.
  bool whole = true;
  // How the refusal names it: "it" (the target); "it is backed by
  // /dev/loop3, which" (a layer below).
  std::string subject;
  int depth = 0;  // 0: the target
};

// The target, then what lies underneath it, all the way down.
std::vector<Layer> Layers(const DeviceInventory& inventory,
                          const BlockDevice& target) {
  std::vector<Layer> layers = {{&target, true, "it", 0}};
  std::vector<std::string> seen = {target.name};
  for (size_t i = 0; i < layers.size(); ++i) {
    const Layer layer = layers[i];  // a copy: push_back moves the vector
    auto add = [&](const BlockDevice* below, bool whole, const char* how) {
      if (below == nullptr || Contains(seen, below->name)) return;
      seen.push_back(below->name);
      layers.push_back(
          {below, whole,
           fmt::format("{} {} {}, which", layer.subject, how, below->path),
           layer.depth + 1});
    };
    const BlockDevice& device = *layer.device;
    if (device.is_partition()) {
      add(inventory.Find(device.parent), false, "is a partition of");
    }
    for (const auto& member : device.members) {
      add(inventory.Find(member), false, "is built on");
    }
    add(inventory.BackingDevice(device), true, "is backed by");
  }
  return layers;
}

std::vector<std::string> Names(const std::vector<Layer>& layers) {
  std::vector<std::string> names;
  for (const auto& layer : layers) names.push_back(layer.device->name);
  return names;
}

// The device and its partitions: what a write to all of it overwrites.
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

// What `layer` puts in the write's way: all of it for a whole layer, the
// device alone for a part.
std::vector<const BlockDevice*> Reached(const DeviceInventory& inventory,
                                        const Layer& layer) {
  if (layer.whole) return Overwritten(inventory, *layer.device);
  return {layer.device};
}

std::vector<std::string> LoopNames(
    const std::vector<const BlockDevice*>& loops) {
  std::vector<std::string> names;
  for (const BlockDevice* loop : loops) names.push_back(loop->name);
  return names;
}

// Devices built on `device` (holders and loops backed by it, recursively)
// and their partitions; the devices named in `chain` (the way down from
// the target) and what is built on them only are left out.
std::vector<const BlockDevice*> BuiltOn(const DeviceInventory& inventory,
                                        const BlockDevice& device,
                                        const std::vector<std::string>& chain) {
  std::vector<const BlockDevice*> found;
  std::vector<std::string> queue = device.holders;
  for (const auto& loop : LoopNames(inventory.LoopsOn(device))) {
    queue.push_back(loop);
  }
  std::vector<std::string> seen = chain;
  seen.push_back(device.name);
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
    for (const auto& loop : LoopNames(inventory.LoopsOn(*holder))) {
      queue.push_back(loop);
    }
  }
  return found;
}

// Loops backed by `device` or by a file on it, but not on the way down.
std::vector<const BlockDevice*> OtherLoopsOn(
    const DeviceInventory& inventory, const BlockDevice& device,
    const std::vector<std::string>& chain) {
  std::vector<const BlockDevice*> loops;
  for (const BlockDevice* loop : inventory.LoopsOn(device)) {
    if (!Contains(chain, loop->name)) loops.push_back(loop);
  }
  return loops;
}

std::vector<std::string> OtherHolders(const BlockDevice& device,
                                      const std::vector<std::string>& chain) {
  std::vector<std::string> holders;
  for (const auto& name : device.holders) {
    if (!Contains(chain, name)) holders.push_back(name);
  }
  return holders;
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

// "/dev/loop6: backed by /dev/loop3", "/dev/loop6: backed by /x/img, a
// file on /dev/vda".
std::string LoopFinding(const BlockDevice& loop, const BlockDevice& under) {
  const LoopBacking& backing = *loop.backing;
  if (backing.is_block_device()) {
    return fmt::format("{}: backed by {}", loop.path, under.path);
  }
  return fmt::format("{}: backed by {}, a file on {}", loop.path, backing.file,
                     under.path);
}

// What uses `device` (a device the write reaches): its mounts, its
// holders and the loops on it, and what is mounted on top of them.
void AddUsageFindings(const DeviceInventory& inventory,
                      const BlockDevice& device, bool whole,
                      const std::vector<std::string>& chain,
                      std::vector<std::string>& findings) {
  const std::string& path = device.path;
  if (!device.mounts.empty() && !HasContentSignature(device)) {
    const std::string& filesystem = device.mounts.front().filesystem;
    findings.push_back(fmt::format("{}: {}{}", path,
                                   filesystem == "swap" ? "" : filesystem + " ",
                                   MountText(device)));
  }
  for (const BlockDevice* loop : OtherLoopsOn(inventory, device, chain)) {
    findings.push_back(LoopFinding(*loop, device));
  }
  if (!whole) return;
  for (const auto& name : OtherHolders(device, chain)) {
    const BlockDevice* holder = inventory.Find(name);
    const std::string detail = holder == nullptr ? "" : holder->detail;
    findings.push_back(fmt::format("{}: member of {}{}", path,
                                   holder ? holder->path : "/dev/" + name,
                                   detail.empty() ? "" : " (" + detail + ")"));
  }
  for (const BlockDevice* above : BuiltOn(inventory, device, chain)) {
    if (above->mounts.empty()) continue;
    findings.push_back(fmt::format("{} (on {}): {} {}", above->path, path,
                                   above->mounts.front().filesystem,
                                   MountText(*above)));
  }
}

std::vector<std::string> Findings(const DeviceInventory& inventory,
                                  const std::vector<Layer>& layers) {
  const std::vector<std::string> chain = Names(layers);
  std::vector<std::string> findings;
  for (const Layer& layer : layers) {
    for (const BlockDevice* device : Reached(inventory, layer)) {
      if (layer.depth == 0) {  // what is on the target (only it is probed)
        if (!device->probe_error.empty()) {
          findings.push_back(device->probe_error);
        }
        for (const auto& signature : device->signatures) {
          findings.push_back(device->path + ": " +
                             SignatureText(*device, signature));
        }
      }
      AddUsageFindings(inventory, *device, layer.whole, chain, findings);
    }
    const auto& backing = layer.device->backing;
    if (backing && backing->identified && !backing->is_block_device()) {
      for (const BlockDevice* loop :
           inventory.LoopsOnFile(backing->file_device, backing->inode)) {
        if (Contains(chain, loop->name)) continue;
        findings.push_back(
            fmt::format("{}: also backed by {}", loop->path, backing->file));
      }
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

// "/ (the root filesystem)" -> "/"; "the database /x/f.db" -> "the
// database"
std::string ShortWhat(const std::string& what) {
  if (what.rfind("/ ", 0) == 0) return "/";
  return what.substr(0, what.find(" /"));
}

// A brief for a layer below the target: "mounted" -> "mounted (loop3)".
std::string LayerBrief(const Layer& layer, const std::string& brief) {
  if (layer.depth == 0) return brief;
  return fmt::format("{} ({})", brief, layer.device->name);
}

const char* const kNeverHint =
    "flashmark never writes the device holding /, the program or its "
    "results; choose another device";

// Rule 1: a protected path on a device the write reaches whole, or a
// protected or system file backing a loop on the way down.
bool RefuseProtected(const DeviceInventory& inventory,
                     const std::vector<Layer>& layers,
                     const SafetyContext& context, SafetyVerdict& verdict) {
  for (const Layer& layer : layers) {
    if (layer.whole) {
      for (const auto& protected_path : context.protected_paths) {
        const auto under = DevicesUnder(inventory, protected_path.device);
        for (const BlockDevice* device :
             Overwritten(inventory, *layer.device)) {
          if (!Contains(under, device->name)) continue;
          verdict.reason = layer.subject + " holds " + protected_path.what;
          verdict.brief =
              LayerBrief(layer, "holds " + ShortWhat(protected_path.what));
          verdict.hint = kNeverHint;
          return true;
        }
      }
    }
    const auto& backing = layer.device->backing;
    if (!backing) continue;
    if (!backing->identified) {
      verdict.reason = fmt::format(
          "{} is backed by {}, which cannot be "
          "identified",
          layer.subject, backing->file);
      verdict.brief = LayerBrief(layer, "backing unknown");
      verdict.hint = "run as root, or detach the loop device first";
      return true;
    }
    if (backing->is_block_device()) continue;
    for (const auto& file : context.protected_files) {
      if (file.device != backing->file_device || file.inode != backing->inode) {
        continue;
      }
      verdict.reason = layer.subject + " is backed by " + file.what;
      verdict.brief = LayerBrief(layer, "backed by " + ShortWhat(file.what));
      verdict.hint = kNeverHint;
      return true;
    }
    const std::string system = ProtectedSystemDirectory(backing->file);
    if (!system.empty()) {
      verdict.reason =
          fmt::format("{} is backed by {}, a file in the system directory {}",
                      layer.subject, backing->file, system);
      verdict.brief = LayerBrief(layer, "backed by a file in " + system);
      verdict.hint =
          "flashmark never writes a system file; choose another "
          "device";
      return true;
    }
  }
  return false;
}

// Rule 2: mounted, or something built on it is.
bool RefuseMounted(const DeviceInventory& inventory,
                   const std::vector<Layer>& layers, SafetyVerdict& verdict) {
  const std::vector<std::string> chain = Names(layers);
  for (const Layer& layer : layers) {
    for (const BlockDevice* device : Reached(inventory, layer)) {
      bool mounted = !device->mounts.empty();
      if (layer.whole) {
        for (const BlockDevice* above : BuiltOn(inventory, *device, chain)) {
          mounted |= !above->mounts.empty();
        }
      }
      if (!mounted) continue;
      verdict.reason = layer.subject + " is in use";
      verdict.brief = LayerBrief(
          layer, device->mounts.empty() ||
                         device->mounts.front().mount_point != "[SWAP]"
                     ? "mounted"
                     : "swap");
      verdict.hint =
          "unmount it first; flashmark never writes a mounted device";
      return true;
    }
  }
  return false;
}

// Rule 3: held by a dm/md device or a loop other than the ones on the way
// down, or backed by a file another loop uses too.
bool RefuseHeld(const DeviceInventory& inventory,
                const std::vector<Layer>& layers, SafetyVerdict& verdict) {
  const std::vector<std::string> chain = Names(layers);
  for (const Layer& layer : layers) {
    for (const BlockDevice* device : Reached(inventory, layer)) {
      const auto holders = layer.whole ? OtherHolders(*device, chain)
                                       : std::vector<std::string>{};
      if (!holders.empty()) {
        verdict.reason = layer.subject + " is in use";
        verdict.brief = LayerBrief(layer, "member of " + holders.front());
        verdict.hint =
            "stop the array or volume built on it first (mdadm --stop, "
            "dmsetup remove, vgchange -an)";
        return true;
      }
      const auto loops = OtherLoopsOn(inventory, *device, chain);
      if (!loops.empty()) {
        verdict.reason = layer.subject + " is in use";
        verdict.brief = LayerBrief(layer, "backs " + loops.front()->name);
        verdict.hint = fmt::format(
            "detach the loop device first: losetup -d {}", loops.front()->path);
        return true;
      }
    }
    const auto& backing = layer.device->backing;
    if (!backing || !backing->identified || backing->is_block_device()) {
      continue;
    }
    for (const BlockDevice* loop :
         inventory.LoopsOnFile(backing->file_device, backing->inode)) {
      if (Contains(chain, loop->name)) continue;
      verdict.reason = fmt::format("{} is backed by {}, which is in use",
                                   layer.subject, backing->file);
      verdict.brief = LayerBrief(layer, "file backs " + loop->name);
      verdict.hint = fmt::format("detach the loop device first: losetup -d {}",
                                 loop->path);
      return true;
    }
  }
  return false;
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

SafetyVerdict JudgeWrite(const DeviceInventory& inventory,
                         const BlockDevice& target, bool named,
                         const SafetyContext& context) {
  SafetyVerdict verdict;
  const std::vector<Layer> layers = Layers(inventory, target);
  verdict.findings = Findings(inventory, layers);
  if (RefuseProtected(inventory, layers, context, verdict) ||
      RefuseMounted(inventory, layers, verdict) ||
      RefuseHeld(inventory, layers, verdict)) {
    return verdict;
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

Status CheckDestroyAllowed(dev_t number, const std::string& device,
                           const std::vector<std::string>& allow_destroy,
                           const SafetyContext& context) {
  DeviceInventory inventory = ReadDeviceInventory(/*probe_signatures=*/false);
  if (inventory.Find(number) == nullptr) {  // size 0: left out of the list
    const auto name = BlockDeviceName(number);
    auto unlisted = name ? ReadBlockDevice(*name) : std::nullopt;
    if (!unlisted) {
      return UsageError(
          fmt::format("{}: the kernel lists no such block device", device));
    }
    inventory.devices.push_back(std::move(*unlisted));
  }
  const BlockDevice* found = inventory.Find(number);
  std::vector<std::string> overwritten = found->partitions;
  overwritten.push_back(found->name);
  for (auto& listed : inventory.devices) {
    if (Contains(overwritten, listed.name)) ProbeSignatures(listed);
  }
  const BlockDevice& target = *inventory.Find(number);
  bool named = false;
  for (const auto& allowed : allow_destroy) {
    named |= BlockDeviceNumber(allowed) == number;
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

Status CheckDestroyAllowed(const std::string& device,
                           const std::vector<std::string>& allow_destroy,
                           const SafetyContext& context) {
  const auto number = BlockDeviceNumber(device);
  if (!number) {
    return UsageError(fmt::format("{} is not a block device", device),
                      "name a device node such as /dev/nvme0n1");
  }
  return CheckDestroyAllowed(*number, device, allow_destroy, context);
}

}  // namespace flashmark
