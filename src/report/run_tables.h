// A run's settings as the report shows them: its configuration (workload,
// targets, size, timing, the command that reproduces it) and its
// environment (host, kernel, CPU, devices, warnings), each a JSON list of
// [name, value] rows. Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "store/run_store.h"

namespace flashmark {

nlohmann::json ConfigTable(const StoredRun& stored);
nlohmann::json EnvironmentTable(const StoredRun& stored);

}  // namespace flashmark
