// The JSON form of a replay's outcome (model/replay_outcome.h): "replay"
// in a run document (--json, export) and in the stored run's config, read
// back by the store. Times in ns, as the model. Pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "model/replay_outcome.h"

namespace flashmark {

nlohmann::json ToJson(const ReplayOutcome& replay);
// Missing fields read as zero (what older flashmarks did not write).
ReplayOutcome ReplayOutcomeFromJson(const nlohmann::json& value);

}  // namespace flashmark
