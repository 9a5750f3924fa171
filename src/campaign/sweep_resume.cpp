#include "campaign/sweep_resume.h"

#include <fmt/format.h>

#include "common/local_time.h"
#include "common/units.h"
#include "config/campaign_plan.h"

namespace flashmark {
namespace {

// Where the plan expanded now first differs from the one stored when the
// campaign started ("cell 2 (threads=2): targets[0]: ... then, ... now"),
// or "" when it is the same plan: a file with the same hash can still
// expand differently when its $VARIABLES changed.
std::string PlanChange(const std::vector<StoredCell>& stored,
                       const CampaignSpec& campaign,
                       const std::vector<CampaignCell>& cells) {
  if (stored.size() != cells.size()) {
    return fmt::format("it had {} cells, it has {} now", stored.size(),
                       cells.size());
  }
  for (size_t i = 0; i < cells.size(); ++i) {
    std::string change;
    if (stored[i].plan.is_null()) {  // stored without a plan: the parameters
      if (stored[i].parameters != cells[i].parameters) {
        change = "its parameters differ";
      }
    } else {
      change =
          FirstPlanDifference(stored[i].plan, CellPlanJson(campaign, cells[i]));
    }
    if (!change.empty()) {
      return fmt::format("cell {} ({}): {}", i + 1,
                         CellParametersText(cells[i]), change);
    }
  }
  return "";
}

}  // namespace

Result<int64_t> FindResumable(CampaignStore& store,
                              const CampaignSpec& campaign,
                              const std::vector<CampaignCell>& cells,
                              const std::string& file_path) {
  auto latest = store.LatestForFile(file_path);
  if (!latest.ok()) return latest.error();
  if (!*latest) {
    return UsageError(fmt::format("--resume: no campaign from {} in {}",
                                  file_path, store.path()),
                      "run it without --resume to start it");
  }
  const StoredCampaign& found = **latest;
  if (found.status == CampaignStatus::kFinished) {
    return UsageError(
        fmt::format(
            "--resume: campaign {} from {} finished on {}; nothing to resume",
            found.id, file_path,
            LocalTimeText(found.end_unix_ns, "%Y-%m-%d %H:%M")),
        "run it without --resume to start it again");
  }
  if (found.file_hash != campaign.file_hash) {
    return UsageError(
        fmt::format(
            "--resume: {} changed since campaign {} started (SHA-256 {} then, "
            "{} now); its finished cells may not match the changed plan",
            file_path, found.id, found.file_hash.substr(0, 16),
            campaign.file_hash.substr(0, 16)),
        "restore the file as it was, or run without --resume to start a new "
        "campaign");
  }
  auto stored = store.Cells(found.id);
  if (!stored.ok()) return stored.error();
  if (const std::string change = PlanChange(*stored, campaign, cells);
      !change.empty()) {
    return UsageError(
        fmt::format("--resume: {} expands to another plan than campaign {} "
                    "(same file, but its $VARIABLES or this flashmark's "
                    "expansion differ): {}",
                    file_path, found.id, change),
        "set the environment variables as they were, or run without --resume "
        "to start a new campaign");
  }
  return found.id;
}

// Deletes the runs an earlier, interrupted attempt at the cell left.
Status DiscardPartialRuns(RunStore& runs, int64_t campaign_id,
                          const CampaignCell& cell, std::ostream& out) {
  RunFilter filter;
  filter.tags = {{"campaign", std::to_string(campaign_id)},
                 {"cell", std::to_string(cell.index + 1)}};
  auto partial = runs.ListRuns(filter);
  if (!partial.ok()) return partial.error();
  for (const auto& stored : *partial) {
    out << fmt::format(
        "  cell {} was interrupted: its partial run {} is discarded, the "
        "cell reruns from its reset steps\n",
        cell.index + 1, stored.id);
    if (Status deleted = runs.DeleteRun(stored.id); !deleted.ok())
      return deleted;
  }
  return OkStatus();
}

}  // namespace flashmark
