#include "app/analysis_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/units.h"

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
  if (metric) {
    auto parsed = ParseMetric(*metric);
    if (!parsed.ok()) return parsed.error();
    options.metric = *parsed;
  }
  const double interval = run.spec.interval.count() / 1e9;
  if (warmup && *warmup == "auto") {
    options.warmup = WarmupMode::kAuto;
  } else if (warmup && *warmup == "none") {
    options.warmup = WarmupMode::kNone;
  } else if (warmup) {
    auto duration = ParseDuration(*warmup);
    if (!duration.ok()) {
      return UsageError(fmt::format("--warmup: {}", duration.error().message),
                        "try --warmup 1800s, --warmup none or --warmup auto");
    }
    options.warmup = WarmupMode::kFixed;
    options.warmup_seconds = duration->count() / 1e9;
  }
  if (round) {
    auto duration = ParseDuration(*round);
    if (!duration.ok() || duration->count() / 1e9 < interval) {
      return UsageError(fmt::format("--round: \"{}\" is not a duration of at "
                                    "least one interval ({:g} s)",
                                    *round, interval),
                        "try --round 60s");
    }
    options.snia.round_seconds = duration->count() / 1e9;
  }
  if (min_segment) {
    auto duration = ParseDuration(*min_segment);
    if (!duration.ok() || duration->count() / 1e9 < 2 * interval) {
      return UsageError(fmt::format("--min-segment: \"{}\" is not a duration "
                                    "of at least two intervals",
                                    *min_segment),
                        "try --min-segment 60s");
    }
    options.regimes.min_segment_intervals =
        IntervalsIn(duration->count() / 1e9, interval);
    options.regimes.scale_min_segment = false;  // as the user asked
  }
  if (gate) {
    auto share = ParsePercent(*gate);
    if (!share.ok()) {
      return UsageError(fmt::format("--gate: {}", share.error().message),
                        "try --gate 2%");
    }
    options.regimes.magnitude_gate = *share;
  }
  return options;
}

}  // namespace flashmark
