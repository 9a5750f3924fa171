// A run's telemetry summary (analysis/telemetry_summary.h) as the lines
// `run` prints at its end and `show` prints (indented two spaces, under
// the summary), and as the "telemetry" member of the JSON documents (show
// --json, export, the report data), with the write amplification over time
// and why a disk has none. Nothing when the run has none. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/telemetry_summary.h"

namespace flashmark {

void PrintTelemetry(const TelemetrySummary& summary, std::ostream& out);
nlohmann::json TelemetryJson(const TelemetrySummary& summary);
// {"disks": [{device, counter, basis, readings, overall, windows: [{
// start_seconds, end_seconds, host, media, waf}]}], "notes": [...]}: the
// write amplification over time (TelemetryJson's "write_amplification").
nlohmann::json WriteAmplificationJson(const TelemetrySummary& summary);

// The endurance line of `show` ("endurance the host wrote 10.0 GiB
// (SMART) during the run: 0.0018 % of the rated 600 TB written (tag
// tbw=600T)", one line without its end) and its JSON, for a run tagged
// tbw=VALUE; a value that is no size is said so, with no figure.
std::string EnduranceLine(const TelemetrySummary& summary,
                          const std::string& tbw_tag);
nlohmann::json EnduranceJson(const TelemetrySummary& summary,
                             const std::string& tbw_tag);

// `compare`: per group (names[u], the summaries of its runs), the median
// over its runs of each run's figure: the target device's busy share,
// queue and await, device / application writes, flashmark's CPU per IO,
// and the write amplification where SMART gave one. A table with one row
// per group, nothing when no run has telemetry; and its JSON (null then).
struct TelemetryComparisonRow {
  std::string name;
  std::optional<double> busy_percent, queue_size, await_ms;
  std::optional<double> device_write_ratio, self_cpu_us_per_io;
  std::optional<double> write_amplification;
};
std::vector<TelemetryComparisonRow> CompareTelemetry(
    const std::vector<std::string>& names,
    const std::vector<std::vector<TelemetrySummary>>& summaries);
void PrintTelemetryComparison(const std::vector<TelemetryComparisonRow>& rows,
                              std::ostream& out);
nlohmann::json TelemetryComparisonJson(
    const std::vector<TelemetryComparisonRow>& rows);

}  // namespace flashmark
