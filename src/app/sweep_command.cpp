#include "app/sweep_command.h"

#include <iostream>

#include <fmt/format.h>

#include "app/print_error.h"
#include "config/campaign_spec.h"
#include "config/units.h"
#include "report/console_reporter.h"

namespace flashmark {
namespace {

std::string StepText(const CampaignSpec& campaign, const CampaignCell& cell,
                     const ResetStep& step) {
  std::string devices;
  for (const auto& device : ResetDevices(campaign, cell, step)) {
    devices += (devices.empty() ? "" : ",") + device;
  }
  std::string joined;
  for (const auto& option : step.options) joined += (joined.empty() ? "" : ",") + option;
  switch (step.kind) {
    case ResetKind::kDiscard: return "discard " + devices;
    case ResetKind::kSecureErase: return "secure-erase " + devices;
    case ResetKind::kMkfs: {
      std::string args;
      for (const auto& option : step.options) args += option + " ";
      return fmt::format("mkfs.{} {}{}", step.filesystem, args, devices);
    }
    case ResetKind::kMount:
      return fmt::format("mount {} {}{}", devices, step.mount_point,
                         joined.empty() ? "" : " -o " + joined);
    case ResetKind::kPrecondition: return "precondition (" + step.precondition + ") " + devices;
    case ResetKind::kIdle: return "idle " + FormatDuration(step.idle);
    case ResetKind::kExec: {
      std::string argv;
      for (const auto& arg : step.argv) argv += (argv.empty() ? "" : " ") + arg;
      return "exec " + argv;
    }
  }
  return "";
}

}  // namespace

CLI::App* AddSweepCommand(CLI::App& app, SweepOptions& o) {
  CLI::App* command = app.add_subcommand(
      "sweep", "A campaign of runs from a TOML file (this version: --dry-run plans it)");
  command->add_option("CAMPAIGN", o.file, "campaign file (see examples/)")->required();
  command->add_flag("--dry-run", o.dry_run, "print the expanded plan, run nothing");
  return command;
}

int ExecuteSweep(const SweepOptions& o) {
  auto campaign = LoadCampaign(o.file);
  if (!campaign.ok()) return PrintError(campaign.error());
  auto cells = ExpandCampaign(*campaign);
  if (!cells.ok()) return PrintError(cells.error());
  if (!o.dry_run) {
    return PrintError(UsageError(
        fmt::format("{} is valid ({} cells), but this flashmark plans campaigns "
                    "and does not run them yet",
                    o.file, cells->size()),
        "use --dry-run to see the plan; run its cells with `flashmark run`"));
  }
  std::cout << fmt::format("campaign {} ({}, file hash {})\n", campaign->name, o.file,
                           campaign->file_hash.substr(0, 16));
  if (!campaign->description.empty()) std::cout << "  " << campaign->description << "\n";
  std::chrono::nanoseconds total{0};
  for (const auto& cell : *cells) {
    auto built = BuildJobSpec(cell.options);
    if (!built.ok()) return PrintError(built.error());
    const JobSpec& spec = built->spec;
    std::string targets;
    for (const auto& target : spec.targets) targets += " " + target;
    std::cout << fmt::format("#{:<4} {}  repeat {}\n      {}{}  {}{}\n", cell.index + 1,
                             CellParametersText(cell), cell.repeat + 1,
                             DescribeWorkload(spec), targets.empty() ? "" : "  on" + targets,
                             spec.until_steady ? "until steady, at most " : "",
                             FormatDuration(spec.time));
    for (const auto& step : campaign->reset) {
      if (!ResetStepApplies(step, cell)) continue;
      std::cout << "      reset: " << StepText(*campaign, cell, step) << "\n";
      total += step.idle;
    }
    total += spec.time;
  }
  std::cout << fmt::format(
      "{} cells; estimated {} (run time per cell, until-steady cells at their "
      "maximum, plus idle steps; resets and layout come on top)\n",
      cells->size(), FormatDuration(total));
  return 0;
}

}  // namespace flashmark
