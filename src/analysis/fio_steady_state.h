// fio-compatible rolling steady-state criteria (fio's `ss`, `ss_dur`,
// `ss_ramp` options, fio HOWTO "Steady state"; computed as fio's
// steadystate.c does), evaluated after the fact on a per-interval series.
//
// Window: the last N = max(2, round(duration_seconds / interval_seconds))
// intervals, rolled one interval at a time; intervals that start before
// ramp_seconds (relative to the series start) are skipped. fio samples once
// per ss_interval (1 s); here one sample is one interval of the series.
//   kMaxDeviation  (`ss=iops:X%`, `ss=bw:X%`): deviation = max |y_i - mean|
//                  over the window; criterion = 100 * deviation / mean.
//   kSlope         (`ss=iops_slope:X%`, `ss=bw_slope:X%`): slope b of the
//                  least-squares line through (i, y_i), i = 0 .. N-1, in
//                  unit per interval; criterion = 100 * |b| / mean.
// Holds when criterion < limit_percent (strictly, as in fio). The answer is
// the first window that holds: fio would stop the job at its end.
//
// Units: the series' unit; times in seconds since the run started.
// Complexity: O(n) time (monotone deques for the max deviation, prefix
// sums for the slope), O(n) memory.
#pragma once

#include <cstddef>

#include "analysis/interval_series.h"
#include "analysis/length_check.h"

namespace flashmark {

enum class FioCriterion { kMaxDeviation, kSlope };

struct FioSteadyOptions {
  FioCriterion criterion = FioCriterion::kMaxDeviation;
  // fio has no default: it is the X of `ss=iops:X%`; 20 % is flashmark's.
  // The max deviation of 300 one-second samples is about 3 standard
  // deviations, so noisy devices need a wide limit; a slope limit (per
  // interval) is typically well under 1 %.
  double limit_percent = 20.0;
  double duration_seconds = 300.0;  // ss_dur
  double ramp_seconds = 0.0;        // ss_ramp
};

struct FioSteadyState {
  bool reached = false;
  size_t windows_evaluated = 0;
  // The first window that holds; when not reached, the window with the
  // smallest criterion (how close it came). Zero when no full window.
  size_t first_index = 0;
  size_t last_index = 0;  // inclusive
  double start_seconds = 0;
  double end_seconds = 0;  // when reached: the time fio would stop
  double mean = 0;
  double deviation = 0;  // kMaxDeviation: max |y - mean|
  double slope = 0;      // kSlope: per interval
  double criterion_percent = 0;
  double limit_percent = 0;
  // Whether the series holds the ramp and one window: "fio's ss=iops
  // criterion needs a window of 300 s; this run has 10 s".
  LengthCheck length;
};

FioSteadyState FindFioSteadyState(const IntervalSeries& series,
                                  const FioSteadyOptions& options = {});

}  // namespace flashmark
