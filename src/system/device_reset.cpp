#include "system/device_reset.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "system/block_device_info.h"

namespace flashmark {
namespace {

// Runs one command of a step into `record`; a failure becomes an error
// naming the step, the device and what the tool said.
Status Run(ResetRecord& record, const std::vector<std::string>& argv) {
  auto result = RunExternal(argv, std::chrono::hours(12));
  if (!result.ok()) {
    return RuntimeError(fmt::format("{} {}: {}", record.step, record.device,
                                    result.error().message),
                        result.error().hint);
  }
  record.commands.push_back(*result);
  if (!result->succeeded()) {
    return RuntimeError(fmt::format("{} {}: {}", record.step, record.device,
                                    result->FailureText()));
  }
  return OkStatus();
}

// Runs a command that may fail without failing the step (probing).
bool Try(ResetRecord& record, const std::vector<std::string>& argv,
         std::string* output = nullptr) {
  auto result = RunExternal(argv, std::chrono::hours(12));
  if (!result.ok()) return false;
  record.commands.push_back(*result);
  if (output) *output = result->output;
  return result->succeeded();
}

bool IsNvmeNamespace(const std::string& device) {
  const std::string name = std::filesystem::path(device).filename();
  return name.rfind("nvme", 0) == 0 && name.find('n', 4) != std::string::npos &&
         name.find('p', 4) == std::string::npos;
}

}  // namespace

nlohmann::json ToJson(const ResetRecord& record) {
  nlohmann::json commands = nlohmann::json::array();
  for (const auto& command : record.commands)
    commands.push_back(ToJson(command));
  nlohmann::json out = {
      {"step", record.step}, {"device", record.device}, {"commands", commands}};
  if (!record.method.empty()) out["method"] = record.method;
  if (!record.note.empty()) out["note"] = record.note;
  if (!record.state.empty()) out["state"] = record.state;
  return out;
}

Result<ResetRecord> DiscardDevice(const std::string& device) {
  ResetRecord record{"discard", device, "blkdiscard", "", {}};
  if (Status done = Run(record, {"blkdiscard", device}); !done.ok()) {
    return done.error();
  }
  return record;
}

Result<ResetRecord> SecureEraseDevice(const std::string& device) {
  ResetRecord record{"secure-erase", device, "", "", {}};
  std::vector<std::string> skipped;
  if (IsNvmeNamespace(device)) {
    if (!ProgramAvailable("nvme")) {
      skipped.push_back("nvme-cli is not installed");
    } else {
      record.method = "nvme format --ses=1";
      if (Status done =
              Run(record, {"nvme", "format", device, "--ses=1", "--force"});
          !done.ok()) {
        return done.error();
      }
      return record;
    }
  }
  if (ProgramAvailable("hdparm")) {
    std::string identity;
    if (Try(record, {"hdparm", "-I", device}, &identity) &&
        identity.find("Security:") != std::string::npos &&
        identity.find("\tsupported") != std::string::npos &&
        identity.find("not\tfrozen") != std::string::npos) {
      record.method = "ATA security erase (hdparm)";
      for (const auto& argv : std::vector<std::vector<std::string>>{
               {"hdparm", "--user-master", "u", "--security-set-pass",
                "flashmark", device},
               {"hdparm", "--user-master", "u", "--security-erase", "flashmark",
                device}}) {
        if (Status done = Run(record, argv); !done.ok()) return done.error();
      }
      return record;
    }
    skipped.push_back(
        "no ATA security erase (hdparm: not supported or frozen)");
  }
  if (Try(record, {"blkdiscard", "--secure", device})) {
    record.method = "blkdiscard --secure";
    return record;
  }
  skipped.push_back("blkdiscard --secure: not supported");
  record.method = "blkdiscard";
  record.note =
      fmt::format("the device offers no secure erase ({}); discarded instead",
                  fmt::join(skipped, "; "));
  if (Status done = Run(record, {"blkdiscard", device}); !done.ok()) {
    return done.error();
  }
  return record;
}

Result<ResetRecord> SetWriteCache(const std::string& device, bool on) {
  ResetRecord record{"write-cache", device, "", "", {}};
  const auto number = BlockDeviceNumber(device);
  const auto name = number ? BlockDeviceName(*number) : std::nullopt;
  auto described = name ? ReadBlockDevice(*name) : std::nullopt;
  if (!described) {
    return RuntimeError(
        fmt::format("write-cache {}: not a block device sysfs knows", device));
  }
  // A partition's cache is its disk's.
  const std::string disk =
      described->parent.empty() ? described->name : described->parent;
  const std::string wanted = on ? "write back" : "write through";
  const auto refused = [&](const std::string& why) {
    record.note = fmt::format("the write cache was left as it was: {}", why);
  };
  if (IsNvmeNamespace("/dev/" + disk)) {
    if (!ProgramAvailable("nvme")) {
      refused("nvme-cli is not installed");
    } else {
      record.method =
          fmt::format("nvme set-feature --feature-id=6 --value={}", on ? 1 : 0);
      if (!Try(record, {"nvme", "set-feature", "/dev/" + disk, "--feature-id=6",
                        on ? "--value=1" : "--value=0"})) {
        refused("the drive refused Set Features (no volatile write cache?)");
      }
    }
  } else {
    const std::filesystem::path block = "/sys/block/" + disk;
    std::filesystem::path cache_type;
    std::error_code error;
    if (std::filesystem::exists(block / "cache_type", error)) {
      cache_type = block / "cache_type";  // virtio
    } else {
      const std::filesystem::path scsi = block / "device" / "scsi_disk";
      for (const auto& entry :
           std::filesystem::directory_iterator(scsi, error)) {
        cache_type = entry.path() / "cache_type";
      }
    }
    if (cache_type.empty()) {
      refused(fmt::format(
          "a {} device has no write cache of its own to set",
          described->transport.empty() ? "this" : described->transport));
    } else {
      record.method = fmt::format("{} = \"{}\"", cache_type.string(), wanted);
      std::ofstream out(cache_type);
      out << wanted << std::flush;
      if (!out)
        refused(fmt::format("{} refused \"{}\"", cache_type.string(), wanted));
    }
  }
  if (auto after = ReadBlockDevice(disk)) record.state = after->write_cache;
  return record;
}

Result<ResetRecord> MakeFilesystem(const std::string& device,
                                   const std::string& filesystem,
                                   const std::vector<std::string>& options) {
  ResetRecord record{"mkfs", device, "mkfs." + filesystem, "", {}};
  std::vector<std::string> argv{"mkfs." + filesystem};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back(device);
  if (Status done = Run(record, argv); !done.ok()) return done.error();
  return record;
}

Result<ResetRecord> MountDevice(const std::string& device,
                                const std::string& mount_point,
                                const std::vector<std::string>& options) {
  ResetRecord record{"mount", device, "", "", {}};
  std::error_code error;
  std::filesystem::create_directories(mount_point, error);
  if (error) {
    return RuntimeError(
        fmt::format("mount {}: cannot create the mount point {}: {}", device,
                    mount_point, error.message()));
  }
  std::vector<std::string> argv{"mount"};
  if (!options.empty()) {
    argv.push_back("-o");
    argv.push_back(fmt::format("{}", fmt::join(options, ",")));
  }
  argv.push_back(device);
  argv.push_back(mount_point);
  if (Status done = Run(record, argv); !done.ok()) return done.error();
  return record;
}

Result<ResetRecord> UnmountPoint(const std::string& mount_point) {
  ResetRecord record{"unmount", mount_point, "", "", {}};
  // A run killed with its sweep (kill -9: its workers die by
  // PR_SET_PDEATHSIG, a moment later) may still hold files there when the
  // resumed sweep unmounts: "target is busy" is retried for up to 10 s.
  // The record keeps the umount that worked, and a note of the waits.
  constexpr int kBusyRetries = 50;
  for (int attempt = 0;; ++attempt) {
    Status done = Run(record, {"umount", mount_point});
    if (done.ok()) {
      if (attempt > 0) {
        record.commands.erase(record.commands.begin(),
                              record.commands.end() - 1);
        record.note = fmt::format(
            "the mount point was busy at {} earlier attempt{} (200 ms apart)",
            attempt, attempt == 1 ? "" : "s");
      }
      return record;
    }
    const bool busy =
        !record.commands.empty() &&
        record.commands.back().output.find("busy") != std::string::npos;
    if (!busy || attempt == kBusyRetries) {
      Error error = done.error();
      if (busy) {
        error.hint = "a process still uses the mount point (`fuser -vm " +
                     mount_point + "` names it)";
      }
      return error;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace flashmark
