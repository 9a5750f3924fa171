// A history: the runs of one workload in the order they were made, each
// with its headline figure, split into levels by the change points between
// them (analysis/history_changes.h), and the newest run's verdict: in
// line, an improvement, or a regression (beyond a threshold, for CI's exit
// status). Written for the terminal, as JSON (schema "flashmark.history")
// and as a standalone HTML page with an SVG chart (no script, opens
// offline). Pure: the runs arrive with their figures; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/history_changes.h"
#include "analysis/metric.h"

namespace flashmark {

struct HistoryRun {
  int64_t id = 0;
  int64_t start_unix_ns = 0;
  std::string label;  // the run's label and tags, as `list` shows them
  double value = 0;   // its headline figure, in metric.unit
};

enum class NewestVerdict { kNotJudged, kInLine, kImprovement, kRegression };

struct RunHistory {
  std::string name;      // "device=X mode=rndwr", or "all runs"
  std::string workload;  // "rndwr 4k io_uring QD32x4"
  std::string rule;      // how each run's figure was found (one line)
  MetricInfo metric;
  HistoryOptions options;        // the method's settings
  std::vector<HistoryRun> runs;  // oldest first
  HistoryChanges changes;        // over runs[i].value
  NewestJudgement newest;
  NewestVerdict verdict = NewestVerdict::kNotJudged;
  // --fail-on-regression (a fraction: 0.05): the newest run is a
  // regression larger than this.
  std::optional<double> fail_threshold;
  bool fails = false;
};

// Finds the levels and judges the newest run (by history.options), given
// its runs, metric and fail_threshold.
void JudgeHistory(RunHistory& history);

// Whether a relative change (after / before - 1) is for the worse.
bool IsWorse(const MetricInfo& metric, double relative);

std::string HistoryText(const RunHistory& history);
nlohmann::json HistoryJson(const std::vector<RunHistory>& histories);
std::string HistoryPage(const std::vector<RunHistory>& histories,
                        const std::string& title, const std::string& generated);

}  // namespace flashmark
