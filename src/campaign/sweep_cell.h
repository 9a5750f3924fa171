// One cell of a sweep: its reset steps (campaign/cell_reset.h), then its
// workload as a measured run (or runs on several targets at once, or a
// run across MPI ranks with [cluster]: campaign/cluster_cell.h), stored
// as a run tagged campaign=ID, cell=N, its parameter values and repeat.
// Progress goes to `out`, warnings to stderr. An interrupt anywhere (a reset
// step, a layout, the run) is CellStatus::kInterrupted: the cell reruns on
// --resume. Not thread-safe; everything borrowed lives through the call.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "config/campaign_spec.h"
#include "store/campaign_store.h"
#include "system/mount_ledger.h"

namespace flashmark {

struct CellRunSettings {
  std::vector<std::string> allow_destroy;  // the sweep's --allow-destroy
  bool quiet = false;                      // the sweep's --quiet
  std::string command_line;                // the sweep's, for the record
  std::string database;                    // checked already
  bool terminal = false;                   // stdout is a terminal
  bool first_of_session = false;           // the first cell this process runs
};

struct CellOutcome {
  CellStatus status = CellStatus::kFailed;
  std::string error;
};

// `reset_record` receives what each reset step did.
CellOutcome RunCell(const CampaignSpec& campaign, const CampaignCell& cell,
                    int64_t campaign_id, const CellRunSettings& settings,
                    nlohmann::json& reset_record, CampaignStore& store,
                    MountLedger& mounts, std::ostream& out);

}  // namespace flashmark
