// Headline: the one steady figure of a run, chosen by one rule, with the
// record of how it was chosen, so that every command (analyze, show, list,
// compare, report, the sweep table, run --until-steady) can print the same
// number and the same explanation beside it.
//
// The rule, on a per-interval series:
// 1. Cut. none: nothing is cut; fixed: the intervals that end by
//    warmup_seconds are cut; auto: as step 3 says.
// 2. Regimes: change points (change_points.h; significance-tested against
//    the data's own noise and dependence) over the series after the cut.
// 3. Window: the final regime, i.e. the whole series after the cut when
//    there is one regime. In auto mode the warm-up inside it is cut too:
//    its start moves to the latest of
//    - the MSER-5 truncation point of the regime's values (White 1997;
//      mser.h), and of the whole series' when that one ends inside the
//      final regime without reaching its bound (a decay the regimes cut
//      into steps may go on past the last step);
//    - the start of the first SNIA PTS steady window inside the regime
//      (SNIA PTS 2.0.2; steady_state.h). SNIA's window, being local (five
//      rounds), never ends a warm-up on its own;
//    then on, by a twentieth of the regime (at least a round) and up to
//    half of it, while what is left still trends: its least-squares slope
//    is significant (TrendZ, two-sided 1 %) or its first tenth still lies
//    off its last half in the warm-up's direction (Geweke 1992, SettledZ,
//    one-sided 10 %), both with long-run variances (change_significance.h)
//    on values whose stalls are clamped (ClampSpikes; MSER-5 sees them
//    clamped too). The warm-up's direction is the sign of (first round
//    after the cut - mean of the regime's last half). warmup_reason says
//    which of these set the start.
// 4. Figure: the median of the window with its circular block bootstrap
//    CI (window_stats.h), beside the whole-run median (every interval of
//    the series, nothing cut) and the list of changes.
// 5. Verdict: the SNIA PTS criterion judged on the window's values only,
//    never on an earlier window: a run that was steady for five rounds and
//    then fell off a cliff is not "steady" on the strength of those rounds.
//    kSteady: a steady SNIA window lies inside the window; kNotSteady: the
//    window is long enough and none is; kTooShort: the window is shorter
//    than one SNIA window (the verdict text says what it needs).
// A window with no interval (a fixed cut past the end, an empty series) is
// a UsageError, never a zero median. Interruptible (options.cancel).
//
// Units: values in the series' unit; times in seconds since the run
// started (IntervalSeries::start_seconds included); indexes into the
// series. Complexity: O(n log n) plus two bootstraps (regimes O(n log n),
// MSER-5 and SNIA O(n), quantiles O(n log n)): a day of 1 s samples in
// tens of milliseconds. Pure function; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "analysis/bootstrap.h"
#include "analysis/cancel.h"
#include "analysis/change_points.h"
#include "analysis/interval_series.h"
#include "analysis/mser.h"
#include "analysis/steady_state.h"
#include "analysis/window_stats.h"
#include "common/result.h"
#include "model/run_result.h"

namespace flashmark {

enum class WarmupMode { kNone, kFixed, kAuto };

struct HeadlineOptions {
  WarmupMode warmup = WarmupMode::kAuto;
  double warmup_seconds = 0;  // kFixed
  SniaOptions snia;
  ChangePointOptions regimes;
  BootstrapOptions bootstrap;
  // Handed to the regime search and the bootstrap in place of theirs;
  // once cancelled, FindHeadline returns InterruptedError().
  CancelToken cancel;
};

enum class SteadyVerdict { kSteady, kNotSteady, kTooShort };

struct Headline {
  WarmupMode warmup_mode = WarmupMode::kAuto;
  // The window: series indexes [first_index, end_index) and their times.
  size_t first_index = 0;
  size_t end_index = 0;
  double start_seconds = 0;
  double end_seconds = 0;
  // The warm-up's end (auto: the window's start; fixed: as given; none: 0)
  // and why there: "the final regime starts at 3999 s (1 change before it);
  // MSER-5 (White 1997) cuts nothing inside it".
  double warmup_end_seconds = 0;
  std::string warmup_reason;
  // Regimes over the series from regimes_first_index (the fixed cut; 0
  // otherwise): their indexes are relative to it, their times are run
  // times. The window lies in the last, `regime`.
  size_t regimes_first_index = 0;
  ChangePointResult regimes;
  size_t regime = 0;
  bool final_regime = false;  // true when there are several regimes
  double regime_start_seconds = 0;
  MserResult mser;          // over the final regime (auto), else invalid
  double trend_z = 0;       // TrendZ of the window (auto), signed
  double settled_z = 0;     // SettledZ of the window (auto), signed
  SniaSteadyState snia;     // over the window
  WindowStats figure;       // the steady figure: over the window
  SeriesSummary whole_run;  // every interval of the series
  SteadyVerdict verdict = SteadyVerdict::kTooShort;
  std::string verdict_text;  // "steady (SNIA PTS, rounds 0..4 of the window)"
  std::string rule;          // one line: which rule gave the figure
};

Result<Headline> FindHeadline(const IntervalSeries& series,
                              const HeadlineOptions& options = {});

// "throughput changed at t=3999 s: 380 -> 300 MiB/s (-21 %)": `what` names
// the quantity, values as FormatSignificant prints them.
std::string FormatHeadlineChange(const ChangePoint& change,
                                 std::string_view what, std::string_view unit);

}  // namespace flashmark
