// The analysis options `analyze`, `compare` and `report` share (--warmup,
// --metric, --round, --min-segment, --gate), declared on a command and
// validated into AnalysisOptions with errors naming option and value.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "analysis/run_analysis.h"
#include "common/result.h"

namespace flashmark {

void AddAnalysisOptions(CLI::App* command, std::optional<std::string>& warmup,
                        std::optional<std::string>& metric,
                        std::optional<std::string>& round,
                        std::optional<std::string>& min_segment,
                        std::optional<std::string>& gate);

Result<AnalysisOptions> BuildAnalysisOptions(
    const RunResult& run, const std::optional<std::string>& warmup,
    const std::optional<std::string>& metric,
    const std::optional<std::string>& round,
    const std::optional<std::string>& min_segment,
    const std::optional<std::string>& gate);

}  // namespace flashmark
