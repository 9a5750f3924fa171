// Reporters for a RunAnalysis: the terminal view of `flashmark analyze`
// (steady-state determination table, window statistics with the median's
// confidence interval, regimes, latency, a sparkline) and its JSON form.
// Write to the injected stream only.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <span>
#include <string>

#include "analysis/run_analysis.h"
#include "model/run_result.h"

namespace flashmark {

void PrintAnalysis(int64_t run_id, const RunResult& run,
                   const RunAnalysis& analysis, std::ostream& out);

nlohmann::json AnalysisJson(int64_t run_id, const RunAnalysis& analysis);

// A one-line sparkline (block characters) of `values`, `width` wide,
// each character the mean of its share of the values.
std::string Sparkline(std::span<const double> values, size_t width);

}  // namespace flashmark
