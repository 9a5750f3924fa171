// A run's telemetry summary (analysis/telemetry_summary.h) as the lines
// `run` prints at its end and `show` prints (indented two spaces, under
// the summary), and as the "telemetry" member of the JSON documents (show
// --json, export, the report data). Nothing when the run has none. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/telemetry_summary.h"

namespace flashmark {

void PrintTelemetry(const TelemetrySummary& summary, std::ostream& out);
nlohmann::json TelemetryJson(const TelemetrySummary& summary);

}  // namespace flashmark
