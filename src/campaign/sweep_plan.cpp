#include "campaign/sweep_plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "campaign/cluster_cell.h"
#include "common/shell_quote.h"
#include "common/units.h"
#include "report/console_reporter.h"

namespace flashmark {
namespace {

// "precondition seqwr 128KiB  libaio QD32 x 1 thread ... , 2 GiB, on X".
std::string PreconditionText(const ResetStep& step, const std::string& on) {
  RunOptions workload = step.precondition_workload;
  if (workload.targets.empty()) workload.targets = {on};
  auto built = BuildJobSpec(workload);
  if (!built.ok()) return "precondition (workload) on the cell's targets";
  const JobSpec& spec = built->spec;
  std::string limit;
  if (spec.bytes_limit) limit += ", " + FormatBytes(spec.bytes_limit);
  if (spec.until_steady) {
    limit += ", until steady (at most " + FormatDuration(spec.time) + ")";
  } else if (spec.time.count() > 0 && !spec.bytes_limit) {
    limit += ", " + FormatDuration(spec.time);
  }
  return fmt::format("precondition {}{} on {}", DescribeWorkload(spec), limit,
                     on.empty() ? "the cell's targets" : on);
}

}  // namespace

std::string ResetStepText(const CampaignSpec& campaign,
                          const CampaignCell& cell, const ResetStep& step) {
  const std::string devices =
      fmt::format("{}", fmt::join(ResetDevices(campaign, cell, step), ","));
  switch (step.kind) {
    case ResetKind::kDiscard:
      return "discard " + devices;
    case ResetKind::kSecureErase:
      return "secure-erase " + devices;
    case ResetKind::kMkfs: {
      std::string args;
      for (const auto& option : step.options) args += option + " ";
      return fmt::format("mkfs.{} {}{}", step.filesystem, args, devices);
    }
    case ResetKind::kMount:
      return fmt::format(
          "mount {} {}{}", devices, step.mount_point,
          step.options.empty()
              ? ""
              : fmt::format(" -o {}", fmt::join(step.options, ",")));
    case ResetKind::kPrecondition:
      return step.precondition == "snia"
                 ? "precondition (snia: sequential 128k writes of 2x "
                   "capacity) " +
                       devices
                 : PreconditionText(step, devices);
    case ResetKind::kIdle:
      return "idle " + FormatDuration(step.idle);
    case ResetKind::kExec:
      return fmt::format("exec {}", fmt::join(step.argv, " "));
    case ResetKind::kWriteCache:
      return fmt::format("write-cache {} {} (where the device allows)",
                         step.write_cache_on ? "on" : "off", devices);
  }
  return "";
}

std::chrono::nanoseconds EstimatedCellTime(const CampaignSpec& campaign,
                                           const CampaignCell& cell) {
  std::chrono::nanoseconds total{0};
  auto built = BuildJobSpec(cell.options);
  if (built.ok()) total += built->spec.time;
  for (const auto& step : campaign.reset) {
    if (ResetStepApplies(step, cell)) total += step.idle;
  }
  return total;
}

void PrintPlan(const CampaignSpec& campaign,
               const std::vector<CampaignCell>& cells, const std::string& file,
               std::ostream& out) {
  out << fmt::format("campaign {} ({}, file hash {})\n", campaign.name, file,
                     campaign.file_hash.substr(0, 16));
  if (!campaign.description.empty())
    out << "  " << campaign.description << "\n";
  if (const AnalysisSettings& a = campaign.base.analysis; !a.empty()) {
    std::vector<std::string> set;
    const auto add = [&set](const char* key,
                            const std::optional<std::string>& value) {
      if (value) set.push_back(fmt::format("{} {}", key, *value));
    };
    add("warmup", a.warmup);
    add("metric", a.metric);
    add("round", a.round);
    add("min-segment", a.min_segment);
    add("gate", a.gate);
    out << fmt::format(
        "  [analysis] {}: every command's headline of these runs (list, "
        "show, analyze, report, the sweep table)\n",
        fmt::join(set, ", "));
  }
  if (!campaign.hosts.empty() || !campaign.launcher.empty()) {
    out << "  every cell across MPI ranks: "
        << ShellJoin(CellLauncher(campaign, false))
        << " flashmark run ... --mpi\n";
  }
  std::chrono::nanoseconds total{0};
  for (const auto& cell : cells) {
    auto built = BuildJobSpec(cell.options);
    if (!built.ok()) continue;  // ExpandCampaign checked every cell
    const JobSpec& spec = built->spec;
    std::string targets;
    for (const auto& target : spec.targets) targets += " " + target;
    out << fmt::format("#{:<4} {}  repeat {}\n      {}{}  {}{}\n",
                       cell.index + 1, CellParametersText(cell),
                       cell.repeat + 1, DescribeWorkload(spec),
                       targets.empty() ? "" : "  on" + targets,
                       spec.until_steady ? "until steady, at most " : "",
                       FormatDuration(spec.time));
    for (const auto& step : campaign.reset) {
      if (ResetStepApplies(step, cell)) {
        out << "      reset: " << ResetStepText(campaign, cell, step) << "\n";
      }
    }
    total += EstimatedCellTime(campaign, cell);
  }
  out << fmt::format(
      "{} cells; estimated {} (run time per cell, until-steady cells at their "
      "maximum, plus idle steps; resets and layout come on top)\n",
      cells.size(), FormatDuration(total));
  if (const auto& steady = campaign.round_steady_state) {
    const int rounds = std::max(campaign.repeats, 1);
    out << fmt::format(
        "the {} rounds stop once the last {} are steady: at best {} cells, "
        "{}\n",
        rounds, steady->window, cells.size() / rounds * steady->window,
        FormatDuration(total / rounds * steady->window));
  }
}

}  // namespace flashmark
