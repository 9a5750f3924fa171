// The replay part of a run in the report data ("flashmark.report", see
// report/report_data.h): null for a run that is not a replay, else the
// outcome as `flashmark show --json` writes it (document/replay_format.h:
// the same figures, the same units) plus what the page draws: "t", the
// end of each interval of the fidelity series in seconds since the start
// (the run's time axis: the interval 0..1 s is the point at 1 s, the last
// one at the run's end), and "headline_note", the headline's words when
// the timing was not kept ("" otherwise). Pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "model/run_result.h"

namespace flashmark {

nlohmann::json ReplayReportJson(const RunResult& run);

}  // namespace flashmark
