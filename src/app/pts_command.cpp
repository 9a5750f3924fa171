#include "app/pts_command.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "app/print_error.h"
#include "app/store_access.h"
#include "app/sweep_command.h"
#include "campaign/cell_reset.h"
#include "campaign/sweep_plan.h"
#include "common/atomic_file.h"
#include "common/units.h"
#include "config/campaign_env.h"
#include "config/campaign_spec.h"
#include "config/pts_plan.h"
#include "store/campaign_store.h"
#include "store/store_file.h"
#include "system/block_device_info.h"
#include "system/device_safety.h"
#include "system/safety_context.h"

namespace flashmark {
namespace {

// One segment, loaded and expanded like a campaign file.
struct LoadedSegment {
  PtsTest test;
  PtsSegment segment;
  SweepPlan plan;
};

// "4.7 h" from an hour on, else as FormatDuration has it.
std::string HoursText(std::chrono::nanoseconds duration) {
  const double hours = std::chrono::duration<double>(duration).count() / 3600;
  if (hours >= 1) return fmt::format("{:.1f} h", hours);
  return FormatDuration(
      std::chrono::duration_cast<std::chrono::seconds>(duration));
}

Result<uint64_t> DeviceCapacity(const std::string& device) {
  struct stat info {};
  if (stat(device.c_str(), &info) != 0 || !S_ISBLK(info.st_mode)) {
    return UsageError(
        fmt::format("{} is not a block device", device),
        "the PTS tests a whole block device; for a try, a loop device: "
        "losetup -f --show IMAGE");
  }
  const auto name = BlockDeviceName(info.st_rdev);
  const auto described =
      name ? ReadBlockDevice(*name) : std::optional<BlockDevice>();
  if (!described || described->capacity_bytes == 0) {
    return UsageError(fmt::format("{}: its size cannot be read", device),
                      "is it attached? see `flashmark devices`");
  }
  return described->capacity_bytes;
}

void PrintSegmentPlan(const LoadedSegment& loaded,
                      const std::vector<std::string>& allow_destroy) {
  const PtsSegment& segment = loaded.segment;
  const CampaignSpec& campaign = loaded.plan.campaign;
  const std::vector<CampaignCell>& cells = loaded.plan.cells;
  std::cout << fmt::format("\nsegment {}: {}\n", segment.name,
                           campaign.description);
  std::cout << fmt::format("  before the first cell: {}\n",
                           segment.preparation);
  if (!cells.empty()) {
    for (const ResetStep& step : campaign.reset) {
      if (!ResetStepApplies(step, cells.front())) continue;
      std::cout << "    " << ResetStepText(campaign, cells.front(), step)
                << "\n";
    }
  }
  std::cout << fmt::format(
      "  {}: {} cell{}\n", campaign.round_steady_state ? "a round" : "cells",
      segment.cells_per_round, segment.cells_per_round == 1 ? "" : "s");
  for (int i = 0; i < segment.cells_per_round && i < int(cells.size()); ++i) {
    const CampaignCell& cell = cells[i];
    std::cout << fmt::format("    {:>3}  {}  ({})\n", i + 1,
                             CellParametersText(cell),
                             FormatDuration(EstimatedCellTime(campaign, cell)));
    for (const ResetStep& step : campaign.reset) {
      if (step.once || !ResetStepApplies(step, cell)) continue;
      std::cout << "         before it: " << ResetStepText(campaign, cell, step)
                << "\n";
    }
  }
  if (campaign.round_steady_state) {
    std::cout << fmt::format(
        "  rounds: until the last {} are steady (tracked: {} of the cell "
        "{}), {} to {}: {} to {}, plus the preparation\n",
        campaign.round_steady_state->window,
        RoundMetricName(campaign.round_steady_state->metric),
        [&] {
          std::string where;
          for (const auto& [name, values] : campaign.round_steady_state->where)
            where += (where.empty() ? "" : " ") + name + "=" + values.front();
          return where;
        }(),
        segment.min_rounds, segment.max_rounds,
        HoursText(segment.round_time * segment.min_rounds),
        HoursText(segment.round_time * segment.max_rounds));
  } else {
    std::cout << fmt::format("  duration: {}, plus the preparation\n",
                             HoursText(segment.round_time));
  }
  for (const DestroyedDevice& d :
       DestroyedDevices(campaign, cells, allow_destroy)) {
    std::cout << fmt::format("  {}: destroys {} ({}){}\n",
                             d.allowed ? "note" : "warning", d.device,
                             fmt::join(d.steps, ", "),
                             d.allowed ? ", allowed by --allow-destroy"
                                       : ", not named in --allow-destroy");
  }
}

Status ExportSegments(const std::vector<LoadedSegment>& segments,
                      const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    return UsageError(fmt::format("--export: cannot create {}: {}", directory,
                                  error.message()),
                      "give a directory flashmark may write");
  }
  for (const LoadedSegment& loaded : segments) {
    const std::string path =
        (std::filesystem::path(directory) / (loaded.segment.name + ".toml"))
            .string();
    if (Status written = WriteFileAtomically(path, loaded.segment.toml);
        !written.ok()) {
      return written;
    }
    std::cout << fmt::format(
        "wrote {} (run it: flashmark sweep {} "
        "--allow-destroy {})\n",
        path, path, loaded.plan.campaign.targets.front());
  }
  return OkStatus();
}

}  // namespace

CLI::App* AddPtsCommand(CLI::App& app, PtsOptions& o) {
  CLI::App* command = app.add_subcommand(
      "pts",
      "Run the SNIA Solid State Storage Performance Test Specification on a "
      "block device");
  command
      ->add_option("TEST", o.test,
                   "iops throughput latency wsat hir xsr ecw dirth, or all")
      ->required();
  command->add_option("DEVICE", o.device, "the block device under test")
      ->required();
  command
      ->add_option("--allow-destroy", o.allow_destroy,
                   "the device, named again: everything on it is lost")
      ->allow_extra_args(false);
  command->add_option("--profile", o.profile,
                      "enterprise (active range 100 %, TC4/QD32) or client "
                      "(75 %, TC2/QD16) [enterprise]");
  command->add_option("--scale", o.scale,
                      "multiply every duration and write amount (0 < F <= 1) "
                      "for a quick check; not a compliant run [1]");
  command->add_option("--threads", o.threads,
                      "thread count (TC) instead of the specification's");
  command->add_option("--iodepth", o.iodepth,
                      "queue depth per thread (QD) instead of the "
                      "specification's");
  command->add_option("--max-rounds", o.max_rounds,
                      "stop the rounds after N (5..25) when not steady "
                      "before [25]");
  command->add_option("--engine", o.engine, "IO engine [libaio]");
  command->add_flag("--dry-run", o.dry_run,
                    "print the segments, a round's cells and the durations, "
                    "run nothing");
  command->add_option("--export", o.export_directory,
                      "write each segment as DIR/NAME.toml for `flashmark "
                      "sweep`, run nothing");
  command->add_flag("--resume", o.resume,
                    "continue the segments not finished, leave the finished "
                    "ones");
  AddDatabaseOption(command, o.db);
  command->add_flag("-q,--quiet", o.quiet, "no per-interval lines");
  return command;
}

int ExecutePts(const PtsOptions& o, const std::string& command_line) {
  auto tests = ParsePtsTests(o.test);
  if (!tests.ok()) return PrintError(tests.error());
  auto profile = ParsePtsProfile(o.profile);
  if (!profile.ok()) return PrintError(profile.error());
  auto capacity = DeviceCapacity(o.device);
  if (!capacity.ok()) return PrintError(capacity.error());

  // Every segment of every test is planned and loaded before anything runs.
  std::vector<LoadedSegment> segments;
  for (PtsTest test : *tests) {
    PtsSettings settings;
    settings.test = test;
    settings.profile = *profile;
    settings.device = o.device;
    settings.capacity = *capacity;
    settings.scale = o.scale;
    settings.threads = o.threads;
    settings.iodepth = o.iodepth;
    settings.max_rounds = o.max_rounds;
    settings.engine = o.engine;
    auto planned = PlanPts(settings);
    if (!planned.ok()) return PrintError(planned.error());
    for (PtsSegment& segment : *planned) {
      auto campaign = LoadCampaignText(segment.toml, segment.name + ".toml",
                                       ProcessEnvironment());
      if (!campaign.ok()) return PrintError(campaign.error());
      auto cells = ExpandCampaign(*campaign);
      if (!cells.ok()) return PrintError(cells.error());
      SweepPlan plan{std::move(*campaign), std::move(*cells),
                     fmt::format("pts:{}:{}", segment.name, o.device),
                     o.resume ? command_line : command_line + " --resume"};
      segments.push_back({test, std::move(segment), std::move(plan)});
    }
  }
  if (o.export_directory) {
    Status exported = ExportSegments(segments, *o.export_directory);
    return exported.ok() ? 0 : PrintError(exported.error());
  }
  std::cout << fmt::format(
      "SNIA PTS {} on {} ({}), {} profile{}\n", o.test, o.device,
      FormatBytes(*capacity), PtsProfileName(*profile),
      o.scale < 1 ? fmt::format(", scaled by {}: a quick check, not a "
                                "compliant run",
                                o.scale)
                  : "");
  if (o.dry_run) {
    for (const LoadedSegment& loaded : segments) {
      PrintSegmentPlan(loaded, o.allow_destroy);
    }
    return 0;
  }
  const std::string database = o.db.value_or(DefaultDatabasePath());
  if (Status usable = CheckStoreBeforeWriting(database); !usable.ok()) {
    return PrintError(usable.error());
  }
  // The device, judged as a run judges its targets, before any step.
  if (Status allowed = CheckDestroyAllowed(o.device, o.allow_destroy,
                                           CaptureSafetyContext(database));
      !allowed.ok()) {
    return PrintError(allowed.error());
  }
  auto store = CampaignStore::Open(database);
  if (!store.ok()) return PrintError(store.error());
  for (const LoadedSegment& loaded : segments) {
    bool resume = false;
    if (o.resume) {
      auto latest = store->LatestForFile(loaded.plan.identity);
      if (!latest.ok()) return PrintError(latest.error());
      if (*latest && (*latest)->status == CampaignStatus::kFinished) {
        std::cout << fmt::format("\n{}: finished before (campaign {})\n",
                                 loaded.segment.name, (*latest)->id);
        continue;
      }
      resume = latest->has_value();
    }
    std::cout << fmt::format("\n== {}: {} ==\n", loaded.segment.name,
                             PtsTestTitle(loaded.test));
    SweepOptions sweep;
    sweep.file = loaded.segment.name;
    sweep.resume = resume;
    sweep.quiet = o.quiet;
    sweep.allow_destroy = o.allow_destroy;
    sweep.db = database;
    if (int status = RunSweep(loaded.plan, sweep, command_line); status != 0) {
      return status;
    }
  }
  return 0;
}

}  // namespace flashmark
