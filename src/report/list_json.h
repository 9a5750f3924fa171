// The document of `flashmark list --json`: an array with one object per
// stored run (id, label, status, source, times, workload, command line,
// headline medians, p99 latency and tags), in the order given. Pure.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "store/run_store.h"

namespace flashmark {

nlohmann::json ListJson(const std::vector<StoredRun>& runs);

}  // namespace flashmark
