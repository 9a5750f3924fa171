// IntervalTelemetry as JSON, for the run document (--json, export) and the
// store (one object per interval, intervals.telemetry_json). Keys mirror
// the struct; a missing part reads back as absent, so runs recorded
// before telemetry read as having none. Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "model/interval_telemetry.h"

namespace flashmark {

nlohmann::json ToJson(const IntervalTelemetry& telemetry);
// Tolerates anything: what is not an object or not a number is left out.
IntervalTelemetry TelemetryFromJson(const nlohmann::json& value);

}  // namespace flashmark
