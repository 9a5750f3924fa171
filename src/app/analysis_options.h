// The analysis options `analyze`, `compare` and `report` share (--warmup,
// --metric, --round, --min-segment, --gate), declared on a command and
// validated into AnalysisOptions with errors naming option and value, over
// the run's defaults and its campaign's [analysis] choice.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

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

// Where those options replace what the run's campaign chose in its
// [analysis] table, one line each, to print beside the figures:
// "--warmup 6s (the campaign's [analysis] says warmup = "30m")"; added to
// `notes` unless already there (one list for the runs of a command).
void AddAnalysisOverrideNotes(const RunResult& run,
                              const std::optional<std::string>& warmup,
                              const std::optional<std::string>& metric,
                              const std::optional<std::string>& round,
                              const std::optional<std::string>& min_segment,
                              const std::optional<std::string>& gate,
                              std::vector<std::string>& notes);
// "note: figures by --warmup 6s (the campaign's ...)" for each of them.
void PrintOverrideNotes(const std::vector<std::string>& notes,
                        std::ostream& out);

}  // namespace flashmark
