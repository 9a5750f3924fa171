#include "report/headline_text.h"

#include <fmt/format.h>

#include <cmath>

#include "analysis/run_analysis.h"
#include "report/throttle_text.h"

namespace flashmark {
namespace {

const char* VerdictName(SteadyVerdict verdict) {
  switch (verdict) {
    case SteadyVerdict::kSteady:
      return "steady";
    case SteadyVerdict::kNotSteady:
      return "not_steady";
    case SteadyVerdict::kTooShort:
      return "too_short";
  }
  return "too_short";
}

// "write" for "write throughput", "r+w" for both together.
std::string ShortName(const MetricInfo& info) {
  if (info.title == "throughput") return "r+w";
  const size_t space = info.title.find(" throughput");
  return space == std::string::npos ? info.title : info.title.substr(0, space);
}

}  // namespace

ChangePoint ScaledChange(ChangePoint change, const MetricInfo& info) {
  change.median_before /= info.scale;
  change.median_after /= info.scale;
  return change;
}

std::string SignificantText(double v) {
  const double size = std::fabs(v);
  if (size >= 1000) return fmt::format("{:.0f}", v);
  if (size >= 100) return fmt::format("{:.1f}", v);
  if (size >= 10) return fmt::format("{:.2f}", v);
  if (size >= 1 || size == 0) return fmt::format("{:.3f}", v);
  return fmt::format("{:.3g}", v);
}

std::string MetricValueText(double raw, const MetricInfo& info) {
  return SignificantText(raw / info.scale);
}

void PrintHeadline(const Headline& h, const MetricInfo& info,
                   std::string_view indent, std::ostream& out) {
  const WindowStats& f = h.figure;
  // A latency headline (an application profile's commit p99) says which
  // latency it is; a throughput's unit says it already.
  const std::string what = info.higher_is_better ? "" : info.title + " ";
  out << fmt::format(
      "{}headline: {}median {} {} (95 % CI {}..{}) over {}; whole run median "
      "{} {}\n",
      indent, what, MetricValueText(f.median, info), info.unit,
      MetricValueText(f.median_ci.low, info),
      MetricValueText(f.median_ci.high, info),
      h.final_regime
          ? fmt::format("the final regime ({:g}..{:g} s)", h.start_seconds,
                        h.end_seconds)
          : fmt::format("{:g}..{:g} s", h.start_seconds, h.end_seconds),
      MetricValueText(h.whole_run.median, info), info.unit);
  for (const ChangePoint& change : h.regimes.changes) {
    out << indent << "  "
        << FormatHeadlineChange(ScaledChange(change, info), info.title,
                                info.unit)
        << "\n";
  }
  out << indent << "  " << h.verdict_text << "\n";
  out << indent << "  rule: " << h.rule << "\n";
}

void PrintRunHeadline(const RunResult& run, std::string_view indent,
                      std::ostream& out, const CancelToken& cancel) {
  PrintRunThrottle(run, indent, out, cancel);
  auto headline = DefaultHeadline(run, cancel);
  if (!headline.ok() && IsInterruption(headline.error())) return;
  if (!headline.ok()) {
    out << indent << "headline: none: " << headline.error().message << "\n";
    return;
  }
  const MetricInfo info = DescribeMetric(HeadlineMetric(run));
  PrintHeadline(*headline, info, indent, out);
  const size_t changes = headline->regimes.changes.size();
  if (changes > 0) {
    out << fmt::format(
        "{}warning: the {} changed {} during the run: the headline is the "
        "final regime's, not the whole run's (`flashmark analyze` shows "
        "each regime)\n",
        indent, info.title,
        changes == 1 ? "once" : fmt::format("{} times", changes));
  }
}

std::string HeadlineCell(const Headline& h, const MetricInfo& info) {
  const std::string value = MetricValueText(h.figure.median, info);
  std::string cell =
      info.unit == "IOPS"
          ? fmt::format("{} IOPS", value)
          : fmt::format("{} {} {}", ShortName(info), value, info.unit);
  const size_t changes = h.regimes.changes.size();
  if (changes > 0) {
    cell += fmt::format(" ({} change{})", changes, changes == 1 ? "" : "s");
  }
  return cell;
}

namespace {

std::string RuleNote(std::string_view warmup) {
  return fmt::format(
      "medians are each run's headline: {}, over the final regime when "
      "the run changed regime (`flashmark analyze RUN` shows why)",
      warmup);
}

std::string WarmupPhrase(WarmupMode warmup, double warmup_seconds) {
  switch (warmup) {
    case WarmupMode::kAuto:
      return "warm-up found automatically";
    case WarmupMode::kFixed:
      return fmt::format("after a warm-up of {:g} s", warmup_seconds);
    case WarmupMode::kNone:
      return "nothing cut as warm-up";
  }
  return "";
}

}  // namespace

std::string HeadlineRuleNote(WarmupMode warmup, double warmup_seconds) {
  return RuleNote(WarmupPhrase(warmup, warmup_seconds));
}

std::string HeadlineRuleNote(const std::vector<const RunResult*>& runs) {
  std::string phrase = WarmupPhrase(WarmupMode::kAuto, 0);
  for (size_t i = 0; i < runs.size(); ++i) {
    const AnalysisOptions options = DefaultAnalysisOptions(*runs[i]);
    const std::string own =
        WarmupPhrase(options.warmup, options.warmup_seconds);
    if (i > 0 && own != phrase)
      return RuleNote("each run's own warm-up (its campaign's [analysis])");
    phrase = own;
  }
  return RuleNote(phrase);
}

nlohmann::json HeadlineJson(const Headline& h, const MetricInfo& info) {
  nlohmann::json changes = nlohmann::json::array();
  for (const auto& change : h.regimes.changes) {
    changes.push_back(FormatHeadlineChange(ScaledChange(change, info),
                                           info.title, info.unit));
  }
  // Latency figures stay in nanoseconds (their raw values).
  return {{"metric", info.name},
          {"unit", info.scale != 1 ? "ns" : info.unit},
          {"median", h.figure.median},
          {"median_ci",
           {{"low", h.figure.median_ci.low},
            {"high", h.figure.median_ci.high},
            {"confidence", h.figure.median_ci.confidence}}},
          {"count", h.figure.count},
          {"start_seconds", h.start_seconds},
          {"end_seconds", h.end_seconds},
          {"regime_start_seconds", h.regime_start_seconds},
          {"warmup_end_seconds", h.warmup_end_seconds},
          {"warmup_reason", h.warmup_reason},
          {"final_regime", h.final_regime},
          {"regimes", h.regimes.segments.size()},
          {"whole_run_median", h.whole_run.median},
          {"changes", changes},
          {"verdict", VerdictName(h.verdict)},
          {"verdict_text", h.verdict_text},
          {"rule", h.rule}};
}

}  // namespace flashmark
