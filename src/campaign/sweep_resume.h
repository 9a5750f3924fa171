// What `flashmark sweep --resume` checks and undoes before it continues a
// campaign: which stored campaign it continues (not finished, same file
// hash, same expanded plan, targets included) and the partial runs an
// interrupted cell left. Claiming the campaign is CampaignStore::Claim's
// (one transaction that also refuses a live owner). Not thread-safe; the
// stores are borrowed for the call.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/campaign_spec.h"
#include "store/campaign_store.h"
#include "store/run_store.h"

namespace flashmark {

// The campaign --resume continues: the latest one made from `file_path`,
// checked (not finished, same hash, same expanded plan); a usage error
// naming the first difference otherwise.
Result<int64_t> FindResumable(CampaignStore& store,
                              const CampaignSpec& campaign,
                              const std::vector<CampaignCell>& cells,
                              const std::string& file_path);

// Deletes the runs an earlier, interrupted attempt at the cell left,
// saying so on `out`.
Status DiscardPartialRuns(RunStore& runs, int64_t campaign_id,
                          const CampaignCell& cell, std::ostream& out);

}  // namespace flashmark
