// Steady state by the SNIA Solid State Storage Performance Test
// Specification (SNIA PTS Enterprise v1.1 and later, definition of "Steady
// State"; the slope criterion there reads "max - min of the best linear fit
// over the window", which is |b| * (rounds - 1) below), applied to a
// per-interval series.
//
// Method. The series is cut into rounds of `round_seconds` (default 60 s):
// k = max(1, round(round_seconds / interval_seconds)) consecutive intervals
// per round, a trailing partial round is ignored; a round's value is the
// arithmetic mean of its intervals. A measurement window is
// `window_rounds` (default 5) consecutive rounds. With `average` the mean
// of the window's round values, the window is steady when both hold:
//   data excursion   max - min of the round values
//                      <= data_excursion_limit (20 %) * |average|
//   slope excursion  |b| * (window_rounds - 1)
//                      <= slope_excursion_limit (10 %) * |average|
// where y = a + b x is the ordinary least-squares line through the points
// (x = 0 .. window_rounds - 1, position inside the window; y = round value).
// Windows are scanned from the first round; the first steady window is the
// steady-state window and the warm-up ends at the start of its first round.
// When no window is steady the result carries the closest window: the one
// with the smallest max(data excursion / allowed, slope excursion /
// allowed), so a report can say how far the run was from steady.
//
// A series shorter than one window has no verdict (not "not reached"):
// the result's `length` says what the criterion needs.
//
// Units: values in any unit (the results keep it); times in seconds since
// the run started (IntervalSeries::start_seconds included).
// Complexity: O(n) time for the rounds, O(rounds * window_rounds) for the
// scan; O(rounds) memory.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "analysis/interval_series.h"
#include "analysis/length_check.h"

namespace flashmark {

struct SniaOptions {
  double round_seconds = 60.0;
  size_t window_rounds = 5;            // >= 2
  double data_excursion_limit = 0.20;  // fraction of the window average
  double slope_excursion_limit = 0.10;
};

// One measurement window and its determination figures. Absolute figures
// are in the series' unit, percentages are of |average|.
struct SniaWindow {
  size_t first_round = 0;     // round indexes, 0 = the series' first round
  size_t last_round = 0;      // inclusive
  double start_seconds = 0;   // start of first_round
  double end_seconds = 0;     // end of last_round
  double average = 0;         // mean of the round values
  double data_excursion = 0;  // max - min
  double data_excursion_percent = 0;
  double allowed_data_excursion = 0;  // data_excursion_limit * |average|
  double allowed_data_excursion_percent = 0;
  double slope_excursion = 0;  // |slope| * (window_rounds - 1)
  double slope_excursion_percent = 0;
  double allowed_slope_excursion = 0;
  double allowed_slope_excursion_percent = 0;
  double slope = 0;      // least-squares slope, unit per round
  double intercept = 0;  // fitted value at x = 0 (the window's first round)
  bool data_ok = false;
  bool slope_ok = false;
  std::vector<double> round_values;

  bool steady() const { return data_ok && slope_ok; }
  // max(measured / allowed) over both criteria: <= 1 means steady.
  double WorstRatio() const;
};

struct SniaSteadyState {
  bool reached = false;
  // The steady-state window when reached, else the closest window; empty
  // (all zero, no round values) when there are fewer rounds than a window.
  SniaWindow window;
  size_t rounds_evaluated = 0;    // complete rounds in the series
  size_t windows_evaluated = 0;   // windows tested until the answer
  double round_seconds = 0;       // effective: k * interval_seconds
  double warmup_end_seconds = 0;  // window.start_seconds when reached
  // Whether the series holds one window (window_rounds complete rounds):
  // "SNIA steady state needs at least 5 rounds of 60 s = 300 s; this run
  // has 10 s".
  LengthCheck length;
};

// k above: max(1, round(round_seconds / interval_seconds)); 1 when either
// is not positive.
size_t IntervalsPerRound(double interval_seconds, double round_seconds);

// Means of consecutive rounds of k intervals; O(n).
std::vector<double> RoundMeans(const IntervalSeries& series,
                               double round_seconds);

// Evaluates the window made of `round_values` (size >= 2) against the
// limits; fills every figure except the round indexes and times.
SniaWindow EvaluateSniaWindow(std::span<const double> round_values,
                              const SniaOptions& options);

SniaSteadyState FindSniaSteadyState(const IntervalSeries& series,
                                    const SniaOptions& options = {});

}  // namespace flashmark
