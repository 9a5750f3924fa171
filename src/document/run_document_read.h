// Reading a flashmark run document (document/json_format.h, schema
// "flashmark.run") back into the result model: what `--json` wrote, what a
// cluster rank sends rank 0 (cluster/rank_wire.h) and keeps on its own
// disk. The summary is not read: it is computed again from the intervals
// (analysis/run_summary.h), with the CPU times and elapsed time the
// document gives. Interval times are seconds in the document, read back
// to the nanosecond for runs shorter than 50 days. Errors name the JSON
// path that was wrong. Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "model/run_result.h"

namespace flashmark {

Result<IntervalSample> IntervalSampleFromJson(const nlohmann::json& value);
// The header (RunHeaderJson): spec, command line, environment, start.
Result<RunResult> RunHeaderFromJson(const nlohmann::json& value);
// A whole document: the header, every interval, status, error, end time,
// and the summary computed again. A document still "running" (a rank that
// died, a JSON file of a run that was killed) reads as interrupted.
Result<RunResult> RunFromJson(const nlohmann::json& value);
std::optional<RunStatus> RunStatusFromName(const std::string& name);

}  // namespace flashmark
