// A block IO trace's summary (analysis/trace_summary.h) for the terminal
// and as JSON (`flashmark show --trace ID [--json]`, the import's and the
// capture's own output). Pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/trace_summary.h"
#include "model/block_io_trace.h"

namespace flashmark {

// Several lines, each ending in a newline: what was traced, the rates, the
// mix, sequentiality, inter-arrival times, queue depth, queue and device
// times, processes, and the trace's notes.
std::string TraceSummaryText(const BlockIoTrace& trace,
                             const TraceSummary& summary);
nlohmann::json TraceSummaryJson(const BlockIoTrace& trace,
                                const TraceSummary& summary);

}  // namespace flashmark
