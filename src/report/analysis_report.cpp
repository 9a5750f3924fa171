#include "report/analysis_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/console_reporter.h"
#include "report/headline_text.h"
#include "report/profile_figures.h"
#include "report/throttle_text.h"

namespace flashmark {
namespace {

using nlohmann::json;

std::string LatencyLine(const LatencySummary& s) {
  if (s.count == 0) return "none recorded";
  return fmt::format("p50 {}  p90 {}  p95 {}  p99 {}  p99.9 {}  max {}",
                     FormatLatency(s.p50), FormatLatency(s.p90),
                     FormatLatency(s.p95), FormatLatency(s.p99),
                     FormatLatency(s.p999), FormatLatency(s.max));
}

void PrintSnia(const RunAnalysis& a, const MetricInfo& info,
               std::ostream& out) {
  const SniaSteadyState& s = a.snia;
  const SniaWindow& w = s.window;
  if (!s.length.enough || w.round_values.empty()) {
    out << fmt::format(
        "steady state (SNIA PTS, rounds of {:g} s): not judged: "
        "{}\n",
        s.round_seconds, s.length.text);
    return;
  }
  out << fmt::format(
      "steady state (SNIA PTS: rounds of {:g} s, window of {} rounds, data "
      "excursion <= {:g} %, slope excursion <= {:g} %)\n",
      s.round_seconds, w.round_values.size(), w.allowed_data_excursion_percent,
      w.allowed_slope_excursion_percent);
  out << (s.reached
              ? fmt::format("  reached: rounds {}..{} ({:g}..{:g} s)\n",
                            w.first_round, w.last_round, w.start_seconds,
                            w.end_seconds)
              : fmt::format("  NOT reached in {} windows; the closest was "
                            "rounds {}..{} ({:g}..{:g} s)\n",
                            s.windows_evaluated, w.first_round, w.last_round,
                            w.start_seconds, w.end_seconds));
  out << fmt::format("  {:<18} {:>10} {:>22} {:>22}\n", "", "", "allowed",
                     "measured");
  // One row per SNIA criterion: allowed and measured, absolute and in %.
  const auto criterion = [&](const char* name, double allowed,
                             double allowed_percent, double measured,
                             double measured_percent, bool ok) {
    out << fmt::format(
        "  {:<18} {:>10} {:>22} {:>22}  {}\n", name, "",
        fmt::format("{} ({:.1f} %)", MetricValueText(allowed, info),
                    allowed_percent),
        fmt::format("{} ({:.1f} %)", MetricValueText(measured, info),
                    measured_percent),
        ok ? "ok" : "too large");
  };
  criterion("data excursion", w.allowed_data_excursion,
            w.allowed_data_excursion_percent, w.data_excursion,
            w.data_excursion_percent, w.data_ok);
  criterion("slope excursion", w.allowed_slope_excursion,
            w.allowed_slope_excursion_percent, w.slope_excursion,
            w.slope_excursion_percent, w.slope_ok);
  out << fmt::format("  window average {} {}; fitted line {} {:+.3g} x round\n",
                     MetricValueText(w.average, info), info.unit,
                     MetricValueText(w.intercept, info), w.slope / info.scale);
  std::string rounds;
  for (double v : w.round_values) rounds += " " + MetricValueText(v, info);
  out << "  round values" << rounds << "\n";
}

}  // namespace

std::string Sparkline(std::span<const double> values, size_t width) {
  static const char* kBars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  if (values.empty() || width == 0) return "";
  width = std::min(width, values.size());
  std::vector<double> means(width, 0);
  for (size_t c = 0; c < width; ++c) {
    const size_t begin = c * values.size() / width;
    const size_t end = (c + 1) * values.size() / width;
    double sum = 0;
    for (size_t i = begin; i < end; ++i) sum += values[i];
    means[c] = sum / (end - begin);
  }
  const auto [low, high] = std::minmax_element(means.begin(), means.end());
  std::string line;
  for (double mean : means) {
    const int level =
        *high > *low ? static_cast<int>((mean - *low) / (*high - *low) * 7.999)
                     : 3;
    line += kBars[level];
  }
  return line;
}

void PrintAnalysis(int64_t run_id, const RunResult& run, const RunAnalysis& a,
                   std::ostream& out) {
  const MetricInfo info = DescribeMetric(a.metric);
  out << fmt::format("run {}  {}\n", run_id, DescribeWorkload(run.spec));
  out << fmt::format("metric {} ({}), {} intervals of {:g} s\n", info.title,
                     info.unit, a.intervals, a.interval_seconds);
  if (a.intervals == 0) {
    out << "  the run has no full interval to analyse\n";
    return;
  }
  out << fmt::format(
      "  {} {:.0f}..{:.0f} {}\n", Sparkline(a.values, 60),
      *std::min_element(a.values.begin(), a.values.end()) / info.scale,
      *std::max_element(a.values.begin(), a.values.end()) / info.scale,
      info.unit);
  if (a.throttle) {
    out << "throttle: " << ThrottleSentence(*a.throttle) << "\n";
  } else if (!a.throttle_error.empty()) {
    out << "throttle: none found: " << a.throttle_error << "\n";
  }
  PrintHeadline(a.headline, info, "", out);
  out << ProfileFiguresLine(run);
  out << fmt::format("warm-up ({}): {}: {}\n",
                     a.warmup_mode == WarmupMode::kNone    ? "none"
                     : a.warmup_mode == WarmupMode::kFixed ? "fixed"
                                                           : "auto",
                     a.warmup_end_seconds > 0
                         ? fmt::format("{:g} s", a.warmup_end_seconds)
                         : std::string("nothing cut"),
                     a.warmup_source);
  PrintSnia(a, info, out);
  if (!a.mser.length.enough) {
    out << "  MSER-5 truncation: not judged: " << a.mser.length.text << "\n";
  } else if (a.mser.valid) {
    out << fmt::format(
        "  MSER-5 truncation: {:g} s ({} of {} batches of 5){}\n",
        a.mser.warmup_end_seconds, a.mser.truncated_batches, a.mser.batches,
        a.mser.at_bound ? " — at the search bound: the run "
                          "may not have settled"
                        : "");
  }
  auto fio_line = [&](const char* name, const FioSteadyState& f) {
    out << fmt::format("  fio ss={}:{:g}%: {}\n", name, f.limit_percent,
                       !f.length.enough ? "not judged: " + f.length.text
                       : f.reached
                           ? fmt::format("holds at {:g} s ({:.2f} %)",
                                         f.end_seconds, f.criterion_percent)
                           : std::string("never holds"));
  };
  fio_line("iops", a.fio_deviation);
  fio_line("iops_slope", a.fio_slope);

  const WindowStats& w = a.window;
  out << fmt::format("analysed window: {} intervals from {:g} s{}\n", w.count,
                     a.first_index < a.start_times.size()
                         ? a.start_times[a.first_index]
                         : a.warmup_end_seconds,
                     a.warmup_mode == WarmupMode::kAuto
                         ? " (the headline's)"
                         : " (after the warm-up; the headline is over the "
                           "final regime inside it)");
  if (w.count == 0) {
    out << "  nothing left to analyse after the warm-up\n";
    return;
  }
  out << fmt::format(
      "  median {} {}  95 % CI {}..{} (circular block bootstrap, block {}, "
      "{} resamples)\n",
      MetricValueText(w.median, info), info.unit,
      MetricValueText(w.median_ci.low, info),
      MetricValueText(w.median_ci.high, info), w.median_ci.block_length,
      w.median_ci.resamples);
  out << fmt::format(
      "  p25 {}  p75 {}  IQR {}  p5..p95 {}..{} (band {} = {:.1f} % of the "
      "median)\n",
      MetricValueText(w.p25, info), MetricValueText(w.p75, info),
      MetricValueText(w.iqr, info), MetricValueText(w.p5, info),
      MetricValueText(w.p95, info), MetricValueText(w.band_width, info),
      w.band_width_percent);
  out << fmt::format("  min {}  max {}  mean {}  sd {}  CV {:.1f} %\n",
                     MetricValueText(w.min, info), MetricValueText(w.max, info),
                     MetricValueText(w.mean, info),
                     MetricValueText(w.stddev, info), w.cv * 100);
  out << fmt::format("  latency {}\n", LatencyLine(a.latency.both));

  const ChangePointResult& cp = a.regimes;
  out << fmt::format(
      "regimes (change points from {:g} s; minimum {} intervals{}, "
      "significance z >= {:.1f}, gate {:g} %)\n",
      a.regimes_first_index < a.start_times.size()
          ? a.start_times[a.regimes_first_index]
          : 0.0,
      cp.min_segment_intervals,
      a.regime_options.scale_min_segment &&
              cp.min_segment_intervals < a.regime_options.min_segment_intervals
          ? " (scaled to the run)"
          : "",
      cp.critical_z, a.regime_options.magnitude_gate * 100);
  if (!cp.length.enough) {
    out << "  not searched: " << cp.length.text << "\n";
  } else if (cp.changes.empty()) {
    out << "  none: one regime\n";
  }
  for (const auto& change : cp.changes) {
    out << "  " << FormatChange(ScaledChange(change, info), info.unit)
        << fmt::format(" z {:.1f}", change.z) << "\n";
  }
  if (a.regimes.segments.size() > 1) {
    for (size_t r = 0; r < a.regimes.segments.size(); ++r) {
      const Regime& regime = a.regimes.segments[r];
      out << fmt::format("  #{} {:g}..{:g} s  median {} (p25 {}, p75 {})  {}\n",
                         r + 1, regime.start_seconds, regime.end_seconds,
                         MetricValueText(regime.median, info),
                         MetricValueText(regime.p25, info),
                         MetricValueText(regime.p75, info),
                         LatencyLine(a.regime_latency[r].both));
    }
  }
}

json AnalysisJson(int64_t run_id, const RunAnalysis& a) {
  const MetricInfo info = DescribeMetric(a.metric);
  const SniaWindow& w = a.snia.window;
  json regimes = json::array();
  for (size_t r = 0; r < a.regimes.segments.size(); ++r) {
    const Regime& regime = a.regimes.segments[r];
    const LatencySummary& l = a.regime_latency[r].both;
    regimes.push_back({{"start_seconds", regime.start_seconds},
                       {"end_seconds", regime.end_seconds},
                       {"intervals", regime.count},
                       {"median", regime.median},
                       {"p25", regime.p25},
                       {"p75", regime.p75},
                       {"latency_p50_ns", l.p50},
                       {"latency_p95_ns", l.p95},
                       {"latency_p99_ns", l.p99}});
  }
  json changes = json::array();
  for (const auto& change : a.regimes.changes) {
    changes.push_back(
        {{"time_seconds", change.time_seconds},
         {"median_before", change.median_before},
         {"median_after", change.median_after},
         {"relative_change_percent", change.relative_change_percent},
         {"z", change.z},
         {"text", FormatChange(ScaledChange(change, info), info.unit)}});
  }
  const auto length = [](const LengthCheck& check) {
    return check.enough ? json(nullptr) : json(check.text);
  };
  const WindowStats& s = a.window;
  const LatencySummary& l = a.latency.both;
  return {
      {"schema", "flashmark.analysis"},
      {"schema_version", 1},
      {"run", run_id},
      {"metric",
       {{"name", info.name}, {"unit", info.scale != 1 ? "ns" : info.unit}}},
      {"interval_seconds", a.interval_seconds},
      {"intervals", a.intervals},
      {"headline", HeadlineJson(a.headline, info)},
      {"throttle", a.throttle ? ThrottleJson(*a.throttle)
                   : a.throttle_error.empty()
                       ? json()
                       : json{{"error", a.throttle_error}}},
      {"warmup",
       {{"mode", a.warmup_mode == WarmupMode::kNone    ? "none"
                 : a.warmup_mode == WarmupMode::kFixed ? "fixed"
                                                       : "auto"},
        {"source", a.warmup_source},
        {"end_seconds", a.warmup_end_seconds}}},
      {"too_short",  // per method: why it said nothing (null: long enough)
       {{"snia", length(a.snia.length)},
        {"mser5", length(a.mser.length)},
        {"fio_iops", length(a.fio_deviation.length)},
        {"fio_iops_slope", length(a.fio_slope.length)},
        {"regimes", length(a.regimes.length)}}},
      {"steady_state",
       {{"snia",
         {{"reached", a.snia.reached},
          {"round_seconds", a.snia.round_seconds},
          {"rounds_evaluated", a.snia.rounds_evaluated},
          {"windows_evaluated", a.snia.windows_evaluated},
          {"window_first_round", w.first_round},
          {"window_last_round", w.last_round},
          {"window_start_seconds", w.start_seconds},
          {"window_end_seconds", w.end_seconds},
          {"window_average", w.average},
          {"round_values", w.round_values},
          {"data_excursion", w.data_excursion},
          {"data_excursion_percent", w.data_excursion_percent},
          {"allowed_data_excursion", w.allowed_data_excursion},
          {"allowed_data_excursion_percent", w.allowed_data_excursion_percent},
          {"slope_excursion", w.slope_excursion},
          {"slope_excursion_percent", w.slope_excursion_percent},
          {"allowed_slope_excursion", w.allowed_slope_excursion},
          {"allowed_slope_excursion_percent",
           w.allowed_slope_excursion_percent},
          {"slope_per_round", w.slope},
          {"intercept", w.intercept}}},
        {"mser5",
         {{"valid", a.mser.valid},
          {"warmup_end_seconds", a.mser.warmup_end_seconds},
          {"truncated_batches", a.mser.truncated_batches},
          {"at_bound", a.mser.at_bound}}},
        {"fio_iops",
         {{"reached", a.fio_deviation.reached},
          {"limit_percent", a.fio_deviation.limit_percent},
          {"end_seconds", a.fio_deviation.end_seconds}}},
        {"fio_iops_slope",
         {{"reached", a.fio_slope.reached},
          {"limit_percent", a.fio_slope.limit_percent},
          {"end_seconds", a.fio_slope.end_seconds}}}}},
      {"window",
       {{"count", s.count},
        {"median", s.median},
        {"median_ci",
         {{"low", s.median_ci.low},
          {"high", s.median_ci.high},
          {"confidence", s.median_ci.confidence},
          {"block_length", s.median_ci.block_length},
          {"resamples", s.median_ci.resamples}}},
        {"p25", s.p25},
        {"p75", s.p75},
        {"iqr", s.iqr},
        {"p5", s.p5},
        {"p95", s.p95},
        {"min", s.min},
        {"max", s.max},
        {"mean", s.mean},
        {"stddev", s.stddev},
        {"cv", s.cv},
        {"band_width", s.band_width},
        {"band_width_percent", s.band_width_percent}}},
      {"latency",
       {{"count", l.count},
        {"p50_ns", l.p50},
        {"p90_ns", l.p90},
        {"p95_ns", l.p95},
        {"p99_ns", l.p99},
        {"p99.9_ns", l.p999},
        {"p99.99_ns", l.p9999},
        {"max_ns", l.max}}},
      {"regime_search",
       {{"min_segment_intervals", a.regimes.min_segment_intervals},
        {"critical_z", a.regimes.critical_z},
        {"gate", a.regime_options.magnitude_gate},
        {"first_index", a.regimes_first_index}}},
      {"regimes", regimes},
      {"changes", changes},
      {"series",
       {{"time_seconds", a.times},
        {"values", a.values},
        {"p95_ns", a.p95_ns},
        {"p99_ns", a.p99_ns}}}};
}

}  // namespace flashmark
