// The JSON and text forms of an imported run's ToolReport (what fio or
// sysbench printed itself). JSON: {"tool", "version", "file", "job",
// "options": {name: value}, "figures": [{"name", "value", "unit"}],
// "series": [{"name", "unit", "values"}], "notes": [...]}; NaN series
// values are null. Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "model/tool_report.h"

namespace flashmark {

nlohmann::json ToJson(const ToolReport& report);
// Tolerant of missing keys (an empty report from an empty object).
ToolReport ToolReportFromJson(const nlohmann::json& value);

// "reported by fio-3.33 (job randrw)" then the figures, a line per series
// (its median over the intervals) and the notes, for `flashmark show`.
void PrintToolReport(const ToolReport& report, std::ostream& out);

}  // namespace flashmark
