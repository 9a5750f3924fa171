#include "app/analysis_options.h"

#include <algorithm>

#include "analysis/analysis_settings.h"

namespace flashmark {

void AddAnalysisOptions(CLI::App* command, std::optional<std::string>& warmup,
                        std::optional<std::string>& metric,
                        std::optional<std::string>& round,
                        std::optional<std::string>& min_segment,
                        std::optional<std::string>& gate) {
  auto text = [command](const char* name, std::optional<std::string>& slot,
                        const char* help) {
    command->add_option_function<std::string>(
        name, [&slot](const std::string& value) { slot = value; }, help);
  };
  text("--warmup", warmup,
       "skip this long (1800s), none, or find it: auto [auto]");
  text("--metric", metric,
       "write_mibs read_mibs mibs iops p50 p95 p99 p99.9 [by the run's mode]");
  text("--round", round, "SNIA steady-state round length [60s]");
  text("--min-segment", min_segment,
       "shortest regime [60s, or a tenth of a shorter run]");
  text("--gate", gate, "smallest regime change reported [2%]");
}

Result<AnalysisOptions> BuildAnalysisOptions(
    const RunResult& run, const std::optional<std::string>& warmup,
    const std::optional<std::string>& metric,
    const std::optional<std::string>& round,
    const std::optional<std::string>& min_segment,
    const std::optional<std::string>& gate) {
  AnalysisOptions options = DefaultAnalysisOptions(run);
  const AnalysisSettings command{warmup, metric, round, min_segment, gate};
  if (Status applied =
          ApplyAnalysisSettings(command, run.spec.interval.count() / 1e9,
                                SettingsSource::kCommandLine, options);
      !applied.ok()) {
    return applied.error();
  }
  return options;
}

void AddAnalysisOverrideNotes(const RunResult& run,
                              const std::optional<std::string>& warmup,
                              const std::optional<std::string>& metric,
                              const std::optional<std::string>& round,
                              const std::optional<std::string>& min_segment,
                              const std::optional<std::string>& gate,
                              std::vector<std::string>& notes) {
  for (std::string& note : AnalysisOverrides(
           run.spec.analysis,
           AnalysisSettings{warmup, metric, round, min_segment, gate})) {
    if (std::find(notes.begin(), notes.end(), note) == notes.end())
      notes.push_back(std::move(note));
  }
}

void PrintOverrideNotes(const std::vector<std::string>& notes,
                        std::ostream& out) {
  for (const std::string& note : notes)
    out << "note: figures by " << note << "\n";
}

}  // namespace flashmark
