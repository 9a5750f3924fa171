#include "campaign/round_verdict.h"

#include <fmt/format.h>

#include "common/units.h"

namespace flashmark {

double RoundMetricValue(RoundMetric metric, const RunResult& run) {
  const RunSummary& summary = run.summary;
  const double seconds = summary.elapsed_seconds;
  switch (metric) {
    case RoundMetric::kIops:
      return seconds > 0
                 ? static_cast<double>(summary.read.ios + summary.write.ios) /
                       seconds
                 : 0;
    case RoundMetric::kMibs:
      return seconds > 0 ? static_cast<double>(summary.read.bytes +
                                               summary.write.bytes) /
                               (1024.0 * 1024.0) / seconds
                         : 0;
    case RoundMetric::kLatency:
      return summary.latency.mean / 1000.0;
  }
  return 0;
}

std::string RoundMetricLabel(RoundMetric metric) {
  switch (metric) {
    case RoundMetric::kIops:
      return "IOPS";
    case RoundMetric::kMibs:
      return "MiB/s";
    case RoundMetric::kLatency:
      return "mean latency (µs)";
  }
  return "?";
}

Result<RoundVerdict> EvaluateRounds(const CampaignSpec& campaign,
                                    const std::vector<CampaignCell>& cells,
                                    const std::vector<StoredCell>& stored,
                                    RunStore& runs) {
  RoundVerdict verdict;
  if (!campaign.round_steady_state) return verdict;
  const RoundSteadyState& steady = *campaign.round_steady_state;
  for (size_t i = 0; i < cells.size() && i < stored.size(); ++i) {
    if (!CellMatches(steady.where, cells[i])) continue;
    const StoredCell& cell = stored[i];
    // The rounds so far end at the first tracked cell not run.
    if (!cell.finished() || cell.status == CellStatus::kSkipped) break;
    std::optional<double> value;
    if (cell.status == CellStatus::kOk && cell.run_id) {
      auto run = runs.LoadRun(*cell.run_id, false);
      if (!run.ok()) return run.error();
      value = RoundMetricValue(steady.metric, run->run);
    }
    verdict.values.push_back(value);
    verdict.cells.push_back(cells[i].index);
  }
  const size_t window = static_cast<size_t>(steady.window);
  if (verdict.values.size() < window) return verdict;
  std::vector<double> last;
  for (size_t r = verdict.values.size() - window; r < verdict.values.size();
       ++r) {
    if (!verdict.values[r]) return verdict;
    last.push_back(*verdict.values[r]);
  }
  const SniaOptions options{1.0, window, steady.data_excursion,
                            steady.slope_excursion};
  SniaWindow evaluated = EvaluateSniaWindow(last, options);
  evaluated.first_round = verdict.values.size() - window;
  evaluated.last_round = verdict.values.size() - 1;
  verdict.last_window = std::move(evaluated);
  return verdict;
}

std::string RoundVerdictText(const RoundSteadyState& steady,
                             const RoundVerdict& verdict) {
  if (!verdict.last_window) {
    return fmt::format("{} of {} rounds needed for a window",
                       verdict.values.size(), steady.window);
  }
  const SniaWindow& window = *verdict.last_window;
  const std::string average = steady.metric == RoundMetric::kIops
                                  ? FormatCount(window.average)
                                  : fmt::format("{:.4g}", window.average);
  return fmt::format(
      "{} in rounds {}-{}: average {} {}, excursion {:.1f} % ({:g} % "
      "allowed), slope {:.1f} % ({:g} %)",
      window.steady() ? "steady" : "not steady", window.first_round + 1,
      window.last_round + 1, average, RoundMetricLabel(steady.metric),
      window.data_excursion_percent, window.allowed_data_excursion_percent,
      window.slope_excursion_percent, window.allowed_slope_excursion_percent);
}

}  // namespace flashmark
