// The expanded plan of a campaign cell as canonical JSON: everything the
// cell will do once its campaign file is loaded (with its $VARIABLES) and
// expanded: its parameters, its workload options, its targets and the
// reset steps that run before it with the devices, mount points and
// arguments they act on. A campaign stores it per cell when it starts;
// `flashmark sweep --resume` compares it with the plan expanded now and
// refuses any difference (a changed $VARIABLE that moves the targets, or
// another flashmark that expands the file otherwise). Pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "config/campaign_spec.h"

namespace flashmark {

// {"parameters": [[k, v], ...], "workload": {option: text | true, ...},
//  "targets": [...], "reset": [{"step": "mount", "devices": [...], ...}]}.
// A `once` step is listed with the plan's first cell (as on a first run).
nlohmann::json CellPlanJson(const CampaignSpec& campaign,
                            const CampaignCell& cell);

// Where `now` first differs from `before`, walking objects key by key and
// arrays element by element: "targets[0]: \"/a\" then, \"/b\" now" (values
// shortened to ~80 characters); "" when they are equal.
std::string FirstPlanDifference(const nlohmann::json& before,
                                const nlohmann::json& now);

}  // namespace flashmark
