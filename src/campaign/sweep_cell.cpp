#include "campaign/sweep_cell.h"

#include <fmt/format.h>

#include <iostream>

#include "campaign/cell_reset.h"
#include "campaign/cluster_cell.h"
#include "campaign/measured_run.h"
#include "campaign/targets_at_once.h"
#include "config/run_options.h"
#include "config/tag_options.h"
#include "system/safety_context.h"

namespace flashmark {

CellOutcome RunCell(const CampaignSpec& campaign, const CampaignCell& cell,
                    int64_t campaign_id, const CellRunSettings& settings,
                    nlohmann::json& reset_record, CampaignStore& store,
                    MountLedger& mounts, std::ostream& out) {
  ResetSettings reset_settings{
      settings.allow_destroy, CaptureSafetyContext(settings.database),
      settings.terminal, settings.first_of_session, &mounts};
  auto reset = ResetCell(campaign, cell, reset_settings, out, reset_record);
  if (!reset.ok()) return {CellStatus::kFailed, reset.error().message};
  if (*reset == ResetOutcome::kInterrupted)
    return {CellStatus::kInterrupted, ""};

  RunOptions run_options = cell.options;
  run_options.allow_destroy = settings.allow_destroy;
  run_options.quiet = run_options.quiet || settings.quiet;
  auto built = BuildJobSpec(run_options);
  if (!built.ok()) return {CellStatus::kFailed, built.error().message};
  Tags tags = built->tags;
  tags.emplace_back(kCampaignTag, std::to_string(campaign_id));
  tags.emplace_back(kCellTag, std::to_string(cell.index + 1));
  for (const auto& parameter : cell.parameters) tags.push_back(parameter);
  if (campaign.repeats > 1)
    tags.emplace_back(kRepeatTag, std::to_string(cell.repeat + 1));

  const RunLabels labels{fmt::format("{} #{}", campaign.name, cell.index + 1),
                         tags, "flashmark", ""};
  const std::string cell_command =
      fmt::format("{}  # campaign {}, cell {}", settings.command_line,
                  campaign_id, cell.index + 1);
  Result<MeasuredRun> run = Error{};
  if (!campaign.hosts.empty() || !campaign.launcher.empty()) {
    run = RunCellAcrossRanks(campaign, run_options, labels, settings.database,
                             out);
  } else if (run_options.targets.size() > 1) {
    run = RunTargetsAtOnce(TargetsAtOnceSettings{run_options, settings.database,
                                                 labels, cell_command},
                           out);
  } else {
    MeasuredRunSettings run_settings;
    run_settings.command_line = cell_command;
    run_settings.labels = labels;
    run_settings.database = settings.database;
    run_settings.database_checked = true;
    run_settings.console = &out;
    run_settings.terminal = settings.terminal;
    run = PerformRun(built->spec, run_settings);
  }
  if (!run.ok()) {
    // Interrupted before it measured (during the layout): the cell is not
    // done, --resume runs it again.
    if (IsInterruption(run.error())) {
      out << "  " << run.error().message << "\n";
      return {CellStatus::kInterrupted, ""};
    }
    return {CellStatus::kFailed, run.error().message};
  }
  if (run->run_id != 0) {
    if (Status linked = store.SetCellRun(campaign_id, cell.index, run->run_id);
        !linked.ok()) {
      std::cerr << "warning: " << linked.error().message << "\n";
    }
  }
  switch (run->result.status) {
    case RunStatus::kOk:
      if (run->store_failed) {
        return {CellStatus::kFailed, "the run could not be stored (see above)"};
      }
      return {CellStatus::kOk, ""};
    case RunStatus::kInterrupted:
      return {CellStatus::kInterrupted, ""};
    default:
      return {CellStatus::kFailed, run->result.error
                                       ? run->result.error->message
                                       : "the run failed"};
  }
}

}  // namespace flashmark
