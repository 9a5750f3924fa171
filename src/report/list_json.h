// The document of `flashmark list --json`: an array with one object per
// stored run (id, label, status, source, times, workload, command line,
// the headline (headline_text.h's HeadlineJson; null for a run without
// one), whole-run medians, p99 latency and tags), in the order given.
// headlines[i] belongs to runs[i]. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "analysis/headline.h"
#include "store/run_store.h"

namespace flashmark {

nlohmann::json ListJson(const std::vector<StoredRun>& runs,
                        const std::vector<std::optional<Headline>>& headlines);

}  // namespace flashmark
