// The "flashmark.compare" document (`flashmark compare --json`): per unit
// its member runs, each metric's median and ratio to the baseline with
// their confidence intervals (null for p99 latency when the unit has no
// histograms) and the cost figures a price tag gives. Pure.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "analysis/compare.h"

namespace flashmark {

// `units` and `runs` (the run ids of each unit) are in the order of
// `comparison`; the first unit is the baseline.
nlohmann::json CompareJson(const Comparison& comparison,
                           const std::vector<ComparisonUnit>& units,
                           const std::vector<std::vector<int64_t>>& runs);

}  // namespace flashmark
