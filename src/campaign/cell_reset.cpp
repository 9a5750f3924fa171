#include "campaign/cell_reset.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <set>

#include "campaign/measured_run.h"
#include "common/signals.h"
#include "common/units.h"
#include "config/run_options.h"
#include "report/console_reporter.h"
#include "system/block_device_info.h"
#include "system/device_reset.h"
#include "system/external_command.h"
#include "system/mount_ledger.h"

namespace flashmark {
namespace {

using nlohmann::json;

bool Destroys(const ResetStep& step) {
  switch (step.kind) {
    case ResetKind::kDiscard:
    case ResetKind::kSecureErase:
    case ResetKind::kMkfs:
      return true;
    case ResetKind::kPrecondition:
      return step.precondition == "snia";
    default:
      return false;
  }
}

// The steps given only devices the safety rules allow: the destructive
// ones, and write-cache, which changes how the device behaves.
bool JudgesDevice(const ResetStep& step) {
  return Destroys(step) || step.kind == ResetKind::kWriteCache;
}

// The campaign's own mounts (in `mounts`) that this cell must undo first:
// the ones at points its mount steps use again, and the ones of a device
// (by device number) that one of its destructive steps acts on.
std::set<std::string> MountsToRelease(const CampaignSpec& campaign,
                                      const CampaignCell& cell,
                                      const ResetSettings& settings,
                                      const MountLedger& mounts) {
  std::set<dev_t> destroyed;
  std::set<std::string> remounted;
  for (const auto& step : campaign.reset) {
    if (!ResetStepApplies(step, cell, settings.first_of_session)) continue;
    if (step.kind == ResetKind::kMount) {
      remounted.insert(ResolvedMountPoint(step.mount_point));
    }
    if (Destroys(step)) {
      for (const auto& device : ResetDevices(campaign, cell, step)) {
        if (const auto number = BlockDeviceNumber(device)) {
          destroyed.insert(*number);
        }
      }
    }
  }
  std::set<std::string> release;
  for (const auto& made : mounts.made()) {
    if (remounted.count(made.mount_point) ||
        destroyed.count(static_cast<dev_t>(made.device))) {
      release.insert(made.mount_point);
    }
  }
  return release;
}

Result<json> Precondition(const CampaignSpec& campaign,
                          const CampaignCell& cell, const ResetStep& step,
                          const ResetSettings& settings, std::ostream& log,
                          bool& interrupted) {
  RunOptions options;
  std::vector<std::string> devices;
  if (step.precondition == "snia") {
    // SNIA PTS workload-independent preconditioning: sequential 128 KiB
    // writes of twice the user capacity.
    devices = ResetDevices(campaign, cell, step);
    uint64_t capacity = 0;
    for (const auto& device : devices) {
      // The device's own size (a partition's, not its disk's).
      const auto number = BlockDeviceNumber(device);
      const auto name = number ? BlockDeviceName(*number) : std::nullopt;
      const auto described = name ? ReadBlockDevice(*name) : std::nullopt;
      if (!described || described->capacity_bytes == 0) {
        return RuntimeError(
            fmt::format("precondition {}: cannot read its capacity", device),
            "preconditioning (snia) needs block devices");
      }
      capacity += described->capacity_bytes;
    }
    options.mode = "seqwr";
    options.bs = "128k";
    options.engine = "libaio";
    options.iodepth = "32";
    options.direct = true;
    options.threads = std::to_string(devices.size());
    options.bytes = std::to_string(2 * capacity);
    options.targets = devices;
  } else {
    options = step.precondition_workload;
    options.targets = cell.options.targets;
  }
  options.allow_destroy = settings.allow_destroy;
  options.quiet = true;
  auto built = BuildJobSpec(options);
  if (!built.ok()) return built.error();
  log << fmt::format("  reset: precondition ({}) {}\n", step.precondition,
                     DescribeWorkload(built->spec))
      << std::flush;
  MeasuredRunSettings run_settings;
  run_settings.console = &log;
  run_settings.terminal = settings.terminal;
  auto run = PerformRun(built->spec, run_settings);
  if (!run.ok()) return run.error();
  const RunResult& result = run->result;
  interrupted = result.status == RunStatus::kInterrupted;
  if (result.status == RunStatus::kFailed) {
    return RuntimeError(
        "precondition failed: " +
        (result.error ? result.error->message : std::string("IO error")));
  }
  const double seconds = result.summary.elapsed_seconds;
  return json{{"step", "precondition"},
              {"method", step.precondition},
              {"devices", devices},
              {"targets", options.targets},
              {"workload", DescribeWorkload(built->spec)},
              {"bytes_written", result.summary.write.bytes},
              {"seconds", seconds},
              {"status", RunStatusName(result.status)}};
}

// Checks that `device` may be destroyed now and returns the kernel's node
// of the very device judged ("/dev/sdb" for /dev/disk/by-id/...).
Result<std::string> JudgedDevice(const std::string& device,
                                 const ResetSettings& settings) {
  const auto number = BlockDeviceNumber(device);
  if (!number) {
    return UsageError(fmt::format("{} is not a block device", device),
                      "name a device node such as /dev/nvme0n1");
  }
  if (Status allowed = CheckDestroyAllowed(
          *number, device, settings.allow_destroy, settings.safety);
      !allowed.ok()) {
    return allowed.error();
  }
  const auto node = KernelDeviceNode(*number);
  if (!node) {
    return RuntimeError(
        fmt::format("{}: the kernel's device node /dev/{} is "
                    "missing or is not that device",
                    device, BlockDeviceName(*number).value_or("?")));
  }
  return *node;
}

}  // namespace

Status CheckCampaignDevices(const CampaignSpec& campaign,
                            const std::vector<CampaignCell>& cells,
                            const std::vector<std::string>& allow_destroy) {
  for (const DestroyedDevice& d :
       DestroyedDevices(campaign, cells, allow_destroy)) {
    // A run's own target is judged again by the run; one made by the reset
    // steps (not there yet) only then.
    if (d.by_run_only && (!d.exists || !d.block_device)) continue;
    if (!d.block_device) {
      return UsageError(
          fmt::format("reset step {} acts on {}, which is not a block device",
                      d.steps.front(), d.device),
          "name the devices in [targets] devices = [...] or the step's "
          "device");
    }
    if (!d.allowed) {
      return UsageError(
          fmt::format("{} would destroy {}, which is not named in "
                      "--allow-destroy",
                      d.by_run_only
                          ? std::string("the campaign's runs (they write it)")
                          : "reset step " + d.steps.front(),
                      d.device),
          fmt::format("if everything on it may be destroyed, add "
                      "--allow-destroy={}",
                      d.device));
    }
  }
  return OkStatus();
}

std::vector<DestroyedDevice> DestroyedDevices(
    const CampaignSpec& campaign, const std::vector<CampaignCell>& cells,
    const std::vector<std::string>& allow_destroy) {
  std::set<dev_t> allowed;  // by device number, as the checks before each step
  for (const auto& device : allow_destroy) {
    if (const auto number = BlockDeviceNumber(device)) allowed.insert(*number);
  }
  std::vector<DestroyedDevice> devices;
  const auto add = [&](const std::string& device, const std::string& name,
                       bool by_run) {
    auto found = std::find_if(
        devices.begin(), devices.end(),
        [&device](const DestroyedDevice& d) { return d.device == device; });
    if (found == devices.end()) {
      struct stat info {};
      const bool exists = stat(device.c_str(), &info) == 0;
      const bool block = exists && S_ISBLK(info.st_mode);
      const bool named = std::find(allow_destroy.begin(), allow_destroy.end(),
                                   device) != allow_destroy.end();
      devices.push_back({device,
                         {},
                         block ? allowed.count(info.st_rdev) > 0 : named,
                         block,
                         exists,
                         by_run});
      found = devices.end() - 1;
    }
    found->by_run_only = found->by_run_only && by_run;
    if (std::find(found->steps.begin(), found->steps.end(), name) ==
        found->steps.end()) {
      found->steps.push_back(name);
    }
  };
  for (const auto& cell : cells) {
    for (const auto& step : campaign.reset) {
      if (!JudgesDevice(step) || !ResetStepApplies(step, cell)) continue;
      for (const auto& device : ResetDevices(campaign, cell, step))
        add(device, std::string(ResetKindName(step.kind)), false);
    }
    auto built = BuildJobSpec(cell.options);
    if (!built.ok() || IsRead(built->spec.mode)) continue;
    for (const std::string& target : built->spec.targets) {
      struct stat info {};
      const bool exists = stat(target.c_str(), &info) == 0;
      // A raw device target, or one the resets create (/dev/md0).
      if ((exists && S_ISBLK(info.st_mode)) ||
          (!exists && target.starts_with("/dev/"))) {
        add(target, "run writes", true);
      }
    }
  }
  return devices;
}

namespace {

// One step on its devices; the record of what ran goes to `record` even
// when it fails.
Result<ResetOutcome> RunStep(const CampaignSpec& campaign,
                             const CampaignCell& cell, const ResetStep& step,
                             const ResetSettings& settings, std::ostream& log,
                             json& record) {
  const auto devices = ResetDevices(campaign, cell, step);
  // Each destructive step is judged right before it, and its tool is given
  // the kernel's node of the device judged, not the name in the campaign
  // (a link could point elsewhere by now).
  std::vector<std::string> nodes = devices;
  if (JudgesDevice(step)) {
    for (size_t i = 0; i < devices.size(); ++i) {
      auto judged = JudgedDevice(devices[i], settings);
      if (!judged.ok()) return judged.error();
      nodes[i] = *judged;
    }
  }
  switch (step.kind) {
    case ResetKind::kDiscard:
    case ResetKind::kSecureErase:
    case ResetKind::kMkfs:
    case ResetKind::kMount:
    case ResetKind::kWriteCache:
      for (size_t i = 0; i < devices.size(); ++i) {
        const std::string& device = nodes[i];
        // Flushed: the step may take long (a pipe or file shows it now).
        log << fmt::format("  reset: {}{} {}{}\n", ResetKindName(step.kind),
                           step.kind != ResetKind::kWriteCache ? ""
                           : step.write_cache_on               ? " on"
                                                               : " off",
                           devices[i],
                           device == devices[i] ? "" : " (" + device + ")")
            << std::flush;
        Result<ResetRecord> done =
            step.kind == ResetKind::kDiscard       ? DiscardDevice(device)
            : step.kind == ResetKind::kSecureErase ? SecureEraseDevice(device)
            : step.kind == ResetKind::kWriteCache
                ? SetWriteCache(device, step.write_cache_on)
            : step.kind == ResetKind::kMkfs
                ? MakeFilesystem(device, step.filesystem, step.options)
                : MountDevice(device, step.mount_point, step.options);
        if (!done.ok()) return done.error();
        if (!done->note.empty()) log << "  note: " << done->note << "\n";
        if (!done->state.empty()) {
          log << "  write cache: " << done->state << "\n";
        }
        json entry = ToJson(*done);
        if (step.kind == ResetKind::kMount) {
          // The campaign's mount from now on: undone by id, never by path.
          auto made = settings.mounts->Record(step.mount_point);
          if (!made.ok()) {
            record.push_back(entry);
            return made.error();
          }
          entry["mount_id"] = made->mount_id;
          entry["mounted_device"] =
              fmt::format("{}:{}", major(made->device), minor(made->device));
        }
        record.push_back(entry);
      }
      return ResetOutcome::kDone;
    case ResetKind::kPrecondition: {
      bool interrupted = false;
      auto done =
          Precondition(campaign, cell, step, settings, log, interrupted);
      if (!done.ok()) return done.error();
      record.push_back(*done);
      return interrupted ? ResetOutcome::kInterrupted : ResetOutcome::kDone;
    }
    case ResetKind::kIdle: {
      log << "  reset: idle " << FormatDuration(step.idle) << "\n"
          << std::flush;
      record.push_back(
          {{"step", "idle"},
           {"seconds", std::chrono::duration<double>(step.idle).count()}});
      return WaitForInterrupt(step.idle.count()) != 0
                 ? ResetOutcome::kInterrupted
                 : ResetOutcome::kDone;
    }
    case ResetKind::kExec: {
      log << fmt::format("  reset: exec {}\n", fmt::join(step.argv, " "))
          << std::flush;
      auto done = RunExternal(step.argv);
      if (!done.ok()) return done.error();
      json entry = ToJson(*done);
      entry["step"] = "exec";
      record.push_back(entry);
      if (!done->succeeded()) {
        return RuntimeError("exec " + done->FailureText());
      }
      return ResetOutcome::kDone;
    }
  }
  return ResetOutcome::kDone;
}

}  // namespace

Status CheckCampaignMountPoints(const CampaignSpec& campaign,
                                const MountLedger& mounts) {
  for (const auto& step : campaign.reset) {
    if (step.kind != ResetKind::kMount) continue;
    if (Status free = mounts.CheckFree(step.mount_point); !free.ok()) {
      Error error = free.error();
      error.message = "the campaign's mount step: " + error.message;
      error.hint +=
          "; a sweep that was killed leaves its own mounts, which `--resume` "
          "undoes";
      return error;
    }
  }
  return OkStatus();
}

Result<ResetOutcome> ResetCell(const CampaignSpec& campaign,
                               const CampaignCell& cell,
                               const ResetSettings& settings, std::ostream& log,
                               json& record) {
  for (const auto& mount_point :
       MountsToRelease(campaign, cell, settings, *settings.mounts)) {
    if (Status done = settings.mounts->Release(mount_point, log, record);
        !done.ok()) {
      return done.error();
    }
  }
  // A mount step never stacks on, nor unmounts, what the campaign did not
  // mount: refused here, before any destructive step of the cell.
  for (const auto& step : campaign.reset) {
    if (step.kind != ResetKind::kMount) continue;
    if (!ResetStepApplies(step, cell, settings.first_of_session)) continue;
    if (Status free = settings.mounts->CheckFree(step.mount_point);
        !free.ok()) {
      return free.error();
    }
  }
  for (const auto& step : campaign.reset) {
    if (!ResetStepApplies(step, cell, settings.first_of_session)) continue;
    if (TakePendingInterrupt() != 0) return ResetOutcome::kInterrupted;
    auto done = RunStep(campaign, cell, step, settings, log, record);
    if (!done.ok()) {
      // An interrupt is an interruption wherever it lands: in a
      // precondition's layout, or a Ctrl-C that also ended the step's
      // program (mkfs, exec), which then failed.
      if (IsInterruption(done.error()) || TakePendingInterrupt() != 0) {
        return ResetOutcome::kInterrupted;
      }
      return done.error();
    }
    if (*done == ResetOutcome::kInterrupted) return ResetOutcome::kInterrupted;
  }
  if (TakePendingInterrupt() != 0) return ResetOutcome::kInterrupted;
  return ResetOutcome::kDone;
}

Status ReleaseCampaignMounts(MountLedger& mounts, std::ostream& log) {
  json record = json::array();  // no cell to keep it with: the log says it
  for (const auto& mount_point : mounts.MountPoints()) {
    if (Status done = mounts.Release(mount_point, log, record); !done.ok())
      return done;
  }
  return OkStatus();
}

}  // namespace flashmark
