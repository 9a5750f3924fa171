#include "analysis/headline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/change_significance.h"
#include "analysis/quantiles.h"

namespace flashmark {
namespace {

// |TrendZ| above which the window still trends (two-sided 1 %), and the
// one-sided SettledZ above which its start is still warming up (10 %).
// Calibrated with bench/analysis_truth.cpp (warm-up grid, flat series).
constexpr double kTrendZ = 2.58;
constexpr double kSettledZ = 1.28;

std::string Plural(size_t count, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", count, count == 1 ? one : many);
}

// Step 3 of the header in auto mode: the window's first index, with the
// warm-up reason and the MSER-5 and trend figures filled into h.
size_t CutInsideRegime(const IntervalSeries& series, size_t cut,
                       size_t regime_first, const HeadlineOptions& options,
                       Headline& h) {
  const size_t n = series.size();
  const size_t per_round =
      IntervalsPerRound(series.interval_seconds, options.snia.round_seconds);
  // MSER-5 over the final regime, and over the whole series when it ends
  // inside the final regime without reaching its bound (a decay the
  // regimes cut into steps may go on past the last step; a bound means
  // MSER-5 saw a later regime, not a warm-up).
  // Stalls clamped first (ClampSpikes): a stalled second early in the
  // regime is neither a warm-up for MSER-5 nor a trend for the tests below.
  const size_t batch =
      std::max<size_t>(h.regimes.min_segment_intervals / 3, 10);
  const std::vector<double> clamped =
      ClampSpikes(series.values, std::max<size_t>(batch * 3 / 2, 10));
  const IntervalSeries robust{clamped, series.interval_seconds,
                              series.start_seconds, series.bounds};
  h.mser = FindMserTruncation(robust.Suffix(regime_first));
  const bool use_mser = h.mser.valid && h.mser.length.enough;
  const size_t mser_first =
      regime_first + (use_mser ? h.mser.truncated_intervals : 0);
  size_t run_mser_first = 0;
  if (h.final_regime) {
    const MserResult run = FindMserTruncation(robust.Suffix(cut));
    if (run.valid && run.length.enough && !run.at_bound) {
      run_mser_first = cut + run.truncated_intervals;
    }
  }
  const SniaSteadyState snia =
      FindSniaSteadyState(series.Suffix(regime_first), options.snia);
  const size_t snia_first =
      regime_first + (snia.reached ? snia.window.first_round * per_round : 0);
  size_t first =
      std::max({regime_first, mser_first, run_mser_first, snia_first});

  // What the window still holds of a warm-up is warm-up too: the start
  // moves on by a twentieth of the regime (at least a round), up to half
  // the regime, while the window's slope is significant (|TrendZ| >
  // kTrendZ) or its first tenth still lies off its last half in the
  // warm-up's direction (Geweke's SettledZ > kSettledZ, one-sided: a
  // decay's remnant sits at the window's start, where a line over the
  // whole window dilutes it). The warm-up's direction: where the series
  // started relative to the final regime's last half.
  const std::span<const double> y = clamped;
  const auto mean_of = [&](size_t from, size_t to) {
    double sum = 0;
    for (size_t i = from; i < to; ++i) sum += y[i];
    return to > from ? sum / static_cast<double>(to - from) : 0.0;
  };
  const double direction =
      mean_of(cut, std::min(n, cut + per_round)) >=
              mean_of(regime_first + (n - regime_first) / 2, n)
          ? 1.0
          : -1.0;
  const size_t step = std::max(per_round, (n - regime_first) / 20);
  const size_t limit = std::max(first, regime_first + (n - regime_first) / 2);
  const size_t before_trend = first;
  const auto still_trending = [&] {
    const std::span<const double> window = y.subspan(first);
    h.trend_z = TrendZ(window, batch);
    h.settled_z = SettledZ(window, batch);
    return std::abs(h.trend_z) > kTrendZ || direction * h.settled_z > kSettledZ;
  };
  while (still_trending() && first + step <= limit) first += step;

  std::vector<std::string> parts;
  const std::string inside = h.final_regime ? " inside it" : "";
  if (h.final_regime) {
    parts.push_back(
        fmt::format("the final regime starts at {} ({} before it)",
                    FormatSeconds(series.TimeAt(regime_first)),
                    Plural(h.regimes.changes.size(), "change", "changes")));
  }
  if (!use_mser) {
    parts.push_back(
        CheckLength(h.mser.length.need, h.mser.length.needed_seconds,
                    h.mser.length.have_seconds,
                    h.final_regime ? "the final regime" : "the series")
            .text);
  } else if (mser_first == regime_first) {
    parts.push_back(fmt::format("MSER-5 (White 1997) cuts nothing{}", inside));
  } else {
    parts.push_back(fmt::format(
        "MSER-5 (White 1997) ends the warm-up{} at {}{}", inside,
        FormatSeconds(series.TimeAt(mser_first)),
        h.mser.at_bound ? " (its search bound, half the series: the "
                          "values may still be changing)"
                        : ""));
  }
  if (run_mser_first > std::max(regime_first, mser_first)) {
    parts.push_back(fmt::format(
        "MSER-5 over the whole run ends it later, at {}: the decay went on "
        "past the last change",
        FormatSeconds(series.TimeAt(run_mser_first))));
  }
  if (snia_first > std::max({regime_first, mser_first, run_mser_first})) {
    parts.push_back(
        fmt::format("the first SNIA PTS steady window{} starts later, at {}",
                    inside, FormatSeconds(series.TimeAt(snia_first))));
  }
  const bool still =
      std::abs(h.trend_z) > kTrendZ || direction * h.settled_z > kSettledZ;
  if (first > before_trend) {
    parts.push_back(fmt::format(
        "what followed still trended (least-squares slope, Geweke's "
        "start-against-end test) until {}",
        FormatSeconds(series.TimeAt(first))));
  }
  if (still) {
    parts.push_back(fmt::format(
        "what is left still trends (slope z = {:.1f}, Geweke z = {:.1f}; "
        "the search stops at half the regime): the values may still be "
        "changing",
        h.trend_z, h.settled_z));
  }
  // SNIA's first steady window over the whole series, when earlier: the
  // old automatic warm-up, and why it is not the answer.
  const SniaSteadyState early =
      FindSniaSteadyState(series.Suffix(cut), options.snia);
  if (early.reached &&
      early.window.start_seconds <
          series.TimeAt(first) - 0.5 * series.interval_seconds) {
    parts.push_back(fmt::format(
        "SNIA's first steady window ({:g}..{:g} s) is not used: the "
        "values still changed after it",
        early.window.start_seconds, early.window.end_seconds));
  }
  std::string reason;
  for (size_t i = 0; i < parts.size(); ++i) {
    reason += (i == 0 ? "" : "; ") + parts[i];
  }
  h.warmup_reason = std::move(reason);
  return first;
}

void JudgeWindow(const IntervalSeries& window, const SniaOptions& options,
                 Headline& h) {
  h.snia = FindSniaSteadyState(window, options);
  const std::string where = h.final_regime ? "the final regime" : "the window";
  const SniaWindow& w = h.snia.window;
  if (!h.snia.length.enough) {
    h.verdict = SteadyVerdict::kTooShort;
    h.verdict_text =
        "steady state not judged: " +
        CheckLength(h.snia.length.need, h.snia.length.needed_seconds,
                    h.snia.length.have_seconds, where)
            .text;
  } else if (h.snia.reached) {
    h.verdict = SteadyVerdict::kSteady;
    h.verdict_text = fmt::format(
        "steady: SNIA PTS window {:g}..{:g} s inside {} (data excursion "
        "{:.1f} % <= {:g} %, slope excursion {:.1f} % <= {:g} %)",
        w.start_seconds, w.end_seconds, where, w.data_excursion_percent,
        w.allowed_data_excursion_percent, w.slope_excursion_percent,
        w.allowed_slope_excursion_percent);
  } else {
    h.verdict = SteadyVerdict::kNotSteady;
    h.verdict_text = fmt::format(
        "not steady: no SNIA PTS window inside {} holds; the closest "
        "({:g}..{:g} s) has data excursion {:.1f} % (allowed {:g} %), slope "
        "excursion {:.1f} % (allowed {:g} %)",
        where, w.start_seconds, w.end_seconds, w.data_excursion_percent,
        w.allowed_data_excursion_percent, w.slope_excursion_percent,
        w.allowed_slope_excursion_percent);
  }
}

}  // namespace

Result<Headline> FindHeadline(const IntervalSeries& series,
                              const HeadlineOptions& options) {
  Headline h;
  h.warmup_mode = options.warmup;
  const size_t n = series.size();
  if (n == 0) {
    return UsageError("no full interval to analyse",
                      "a run needs at least one full interval");
  }
  h.whole_run = SummarizeSeries(
      std::vector<double>(series.values.begin(), series.values.end()));

  // 1. The cut.
  size_t cut = 0;
  if (options.warmup == WarmupMode::kFixed) {
    cut = series.FirstStartingAt(options.warmup_seconds);
    if (cut >= n) {
      return UsageError(
          fmt::format("--warmup {}: leaves no interval to analyse (the "
                      "series ends at {})",
                      FormatSeconds(options.warmup_seconds),
                      FormatSeconds(series.TimeAt(n))),
          "try a shorter --warmup, or --warmup auto");
    }
    h.warmup_end_seconds = options.warmup_seconds;
    h.warmup_reason = "set with --warmup";
  } else if (options.warmup == WarmupMode::kNone) {
    h.warmup_reason = "none requested";
  }

  // 2. Regimes after the cut.
  ChangePointOptions regime_options = options.regimes;
  regime_options.cancel = options.cancel;
  h.regimes = DetectChangePoints(series.Suffix(cut), regime_options);
  if (options.cancel.cancelled()) return InterruptedError();
  h.regime = h.regimes.segments.size() - 1;
  h.final_regime = h.regimes.segments.size() > 1;
  h.regimes_first_index = cut;
  const size_t regime_first = cut + h.regimes.segments.back().first_index;
  h.regime_start_seconds = series.TimeAt(regime_first);

  // 3. The window.
  size_t first = regime_first;
  if (options.warmup == WarmupMode::kAuto) {
    first = CutInsideRegime(series, cut, regime_first, options, h);
    h.warmup_end_seconds = series.TimeAt(first);
  }
  h.first_index = first;
  h.end_index = n;
  h.start_seconds = series.TimeAt(first);
  h.end_seconds = series.TimeAt(n);

  // 4. The figure and 5. the verdict, both over the window only.
  const IntervalSeries window = series.Suffix(first);
  BootstrapOptions bootstrap = options.bootstrap;
  bootstrap.cancel = options.cancel;
  h.figure = ComputeWindowStats(window.values, bootstrap);
  if (options.cancel.cancelled()) return InterruptedError();
  JudgeWindow(window, options.snia, h);

  h.rule = fmt::format(
      "median of {} ({}..{} s, {}){}",
      Plural(h.figure.count, "interval", "intervals"), h.start_seconds,
      h.end_seconds,
      h.final_regime
          ? fmt::format("the final regime of {}", h.regimes.segments.size())
          : std::string("one regime"),
      first > regime_first ? ", after the warm-up inside it" : "");
  return h;
}

std::string FormatHeadlineChange(const ChangePoint& change,
                                 std::string_view what, std::string_view unit) {
  double percent = std::round(change.relative_change_percent);
  if (percent == 0) percent = 0;  // no "-0"
  return fmt::format("{} changed at t={:.0f} s: {} -> {} {} ({:+.0f} %)", what,
                     change.time_seconds,
                     FormatSignificant(change.median_before),
                     FormatSignificant(change.median_after), unit, percent);
}

}  // namespace flashmark
