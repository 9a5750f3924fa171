#include "app/analyze_command.h"

#include <fmt/format.h>

#include <cmath>
#include <iostream>

#include "analysis/run_analysis.h"
#include "app/analysis_options.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "common/json_text.h"
#include "document/replay_format.h"
#include "report/analysis_report.h"
#include "report/profile_figures.h"
#include "report/replay_text.h"
#include "system/interrupt_watch.h"

namespace flashmark {

CLI::App* AddAnalyzeCommand(CLI::App& app, AnalyzeOptions& o) {
  CLI::App* command = app.add_subcommand(
      "analyze", "Steady state, median with its confidence interval, regimes");
  AddDatabaseOption(command, o.db);
  command->add_option("RUN", o.run, "run id")->required();
  AddAnalysisOptions(command, o.warmup, o.metric, o.round, o.min_segment,
                     o.gate);
  command->add_flag("--json", o.json, "machine-readable output");
  return command;
}

int ExecuteAnalyze(const AnalyzeOptions& o) {
  // SIGINT/SIGTERM end a long analysis with 130 (reads and computing stop).
  const InterruptWatch watch;
  const auto fail = [&watch](const Error& error) {
    return PrintError(watch.interrupted() ? InterruptedError() : error);
  };
  auto id = ParseRunId(o.run);
  if (!id.ok()) return PrintError(id.error());
  auto store = OpenStoreToRead(o.db);
  if (!store.ok()) return PrintError(store.error());
  store->StopWhen(watch.flag());
  // Counters in memory, histograms streamed: a day of intervals stays small.
  auto stored = store->LoadRun(*id, /*with_histograms=*/false);
  if (!stored.ok()) return fail(stored.error());
  auto options = BuildAnalysisOptions(stored->run, o.warmup, o.metric, o.round,
                                      o.min_segment, o.gate);
  if (!options.ok()) return PrintError(options.error());
  options->cancel = CancelToken(watch.flag());
  auto result =
      AnalyzeRun(stored->run, *options, [&](const HistogramVisitor& visit) {
        return store->ScanHistograms(*id, visit);
      });
  if (!result.ok()) {
    // A replay shorter than an interval has no headline, but its fidelity.
    if (stored->run.replay && !o.json) {
      std::cout << ReplayOutcomeText(*stored->run.replay);
    }
    return fail(result.error());
  }
  const RunAnalysis& analysis = *result;
  std::vector<std::string> overrides;
  AddAnalysisOverrideNotes(stored->run, o.warmup, o.metric, o.round,
                           o.min_segment, o.gate, overrides);
  if (o.json) {
    nlohmann::json document = AnalysisJson(*id, analysis);
    document["overrides"] = overrides;
    if (!stored->run.spec.profile.empty()) {
      document["profile"] = ProfileFiguresJson(stored->run);
    }
    if (stored->run.replay) {
      document["replay"] = ToJson(*stored->run.replay);
      const std::string late = ReplayHeadlineNote(*stored->run.replay);
      if (!late.empty()) document["headline_note"] = late;
    }
    std::cout << JsonText(document, 1) << "\n";
  } else {
    PrintOverrideNotes(overrides, std::cout);
    PrintAnalysis(*id, stored->run, analysis, std::cout);
    if (stored->run.replay) std::cout << ReplayOutcomeText(*stored->run.replay);
  }
  return 0;
}

}  // namespace flashmark
