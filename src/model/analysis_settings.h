// AnalysisSettings: how a run's figures are to be analysed, as a
// campaign's [analysis] table wrote it (warmup = "30m", metric = "iops",
// round, min-segment, gate), carried by each of the campaign's runs
// (JobSpec::analysis, stored in its config) so that every command that
// prints the run's headline (list, show, analyze, compare, report, the
// sweep table) starts from the same choice. Text as written, validated
// when the campaign loads (analysis/analysis_settings.h); an unset field
// means the command's own default. A plain value type.
#pragma once

#include <optional>
#include <string>

namespace flashmark {

struct AnalysisSettings {
  std::optional<std::string> warmup;       // "30m", "none", "auto"
  std::optional<std::string> metric;       // a throughput or IOPS metric
  std::optional<std::string> round;        // SNIA round length
  std::optional<std::string> min_segment;  // shortest regime
  std::optional<std::string> gate;         // smallest regime change

  bool empty() const {
    return !warmup && !metric && !round && !min_segment && !gate;
  }
  bool operator==(const AnalysisSettings&) const = default;
};

}  // namespace flashmark
