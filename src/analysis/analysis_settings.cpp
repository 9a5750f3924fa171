#include "analysis/analysis_settings.h"

#include <fmt/format.h>

#include <optional>

#include "common/units.h"

namespace flashmark {
namespace {

// "--min-segment" or "[analysis] min-segment".
std::string Name(SettingsSource source, const char* key) {
  return source == SettingsSource::kCommandLine
             ? fmt::format("--{}", key)
             : fmt::format("[analysis] {}", key);
}

// "--round 60s" or "round = \"60s\"", for hints.
std::string Example(SettingsSource source, const char* key, const char* value) {
  return source == SettingsSource::kCommandLine
             ? fmt::format("--{} {}", key, value)
             : fmt::format("{} = \"{}\"", key, value);
}

bool IsHeadlineMetric(Metric metric) {
  return metric == Metric::kReadMibs || metric == Metric::kWriteMibs ||
         metric == Metric::kMibs || metric == Metric::kIops ||
         metric == Metric::kCommitP99 || metric == Metric::kCommitP999;
}

}  // namespace

Status ApplyAnalysisSettings(const AnalysisSettings& s, double interval_seconds,
                             SettingsSource source, AnalysisOptions& options) {
  if (s.metric) {
    auto parsed = ParseMetric(*s.metric);
    if (!parsed.ok()) {
      return UsageError(
          fmt::format("{}: {}", Name(source, "metric"), parsed.error().message),
          parsed.error().hint);
    }
    if (source == SettingsSource::kCampaign && !IsHeadlineMetric(*parsed)) {
      return UsageError(
          fmt::format("[analysis] metric: \"{}\" is a latency metric; a "
                      "campaign's headline is a throughput or IOPS figure",
                      *s.metric),
          "use write_mibs, read_mibs, mibs or iops (`flashmark analyze RUN "
          "--metric p99` analyses latency)");
    }
    options.metric = *parsed;
  }
  if (s.warmup && *s.warmup == "auto") {
    options.warmup = WarmupMode::kAuto;
  } else if (s.warmup && *s.warmup == "none") {
    options.warmup = WarmupMode::kNone;
  } else if (s.warmup) {
    auto duration = ParseDuration(*s.warmup);
    if (!duration.ok()) {
      return UsageError(fmt::format("{}: {}", Name(source, "warmup"),
                                    duration.error().message),
                        fmt::format("try {}, none or auto",
                                    Example(source, "warmup", "1800s")));
    }
    options.warmup = WarmupMode::kFixed;
    options.warmup_seconds = duration->count() / 1e9;
  }
  if (s.round) {
    auto duration = ParseDuration(*s.round);
    if (!duration.ok() || duration->count() / 1e9 < interval_seconds) {
      return UsageError(
          fmt::format("{}: \"{}\" is not a duration of at least one "
                      "interval ({:g} s)",
                      Name(source, "round"), *s.round, interval_seconds),
          fmt::format("try {}", Example(source, "round", "60s")));
    }
    options.snia.round_seconds = duration->count() / 1e9;
  }
  if (s.min_segment) {
    auto duration = ParseDuration(*s.min_segment);
    if (!duration.ok() || duration->count() / 1e9 < 2 * interval_seconds) {
      return UsageError(
          fmt::format("{}: \"{}\" is not a duration of at least two "
                      "intervals",
                      Name(source, "min-segment"), *s.min_segment),
          fmt::format("try {}", Example(source, "min-segment", "60s")));
    }
    options.regimes.min_segment_intervals =
        IntervalsIn(duration->count() / 1e9, interval_seconds);
    options.regimes.scale_min_segment = false;  // as the user asked
  }
  if (s.gate) {
    auto share = ParsePercent(*s.gate);
    if (!share.ok()) {
      return UsageError(
          fmt::format("{}: {}", Name(source, "gate"), share.error().message),
          fmt::format("try {}", Example(source, "gate", "2%")));
    }
    options.regimes.magnitude_gate = *share;
  }
  return OkStatus();
}

std::vector<std::string> AnalysisOverrides(const AnalysisSettings& campaign,
                                           const AnalysisSettings& command) {
  std::vector<std::string> lines;
  auto check = [&lines](const char* key,
                        const std::optional<std::string>& theirs,
                        const std::optional<std::string>& ours) {
    if (!theirs || !ours || *theirs == *ours) return;
    lines.push_back(
        fmt::format("--{} {} (the campaign's [analysis] says {} = \"{}\")", key,
                    *ours, key, *theirs));
  };
  check("warmup", campaign.warmup, command.warmup);
  check("metric", campaign.metric, command.metric);
  check("round", campaign.round, command.round);
  check("min-segment", campaign.min_segment, command.min_segment);
  check("gate", campaign.gate, command.gate);
  return lines;
}

}  // namespace flashmark
