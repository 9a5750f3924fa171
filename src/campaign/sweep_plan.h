// The sweep's plan as text: each cell's parameters, workload and the reset
// steps before it (`flashmark sweep --dry-run`), and the time a list of
// cells is expected to take (run time plus idle steps). Pure; writes only
// to the given stream.
#pragma once

#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "config/campaign_spec.h"

namespace flashmark {

// "mkfs.xfs -f /dev/loop3", "mount /dev/loop3 /mnt/a -o noatime", ...
std::string ResetStepText(const CampaignSpec& campaign,
                          const CampaignCell& cell, const ResetStep& step);

// Run time of the cell (until-steady cells at their maximum) plus its idle
// steps.
std::chrono::nanoseconds EstimatedCellTime(const CampaignSpec& campaign,
                                           const CampaignCell& cell);

void PrintPlan(const CampaignSpec& campaign,
               const std::vector<CampaignCell>& cells, const std::string& file,
               std::ostream& out);

}  // namespace flashmark
