// Regime (change-point) detection on a per-interval series: "after ~4000 s
// the garbage collector kicks in and throughput drops from 380 to 300".
//
// Method: best-first binary segmentation (Scott & Knott 1974; Fryzlewicz
// 2014 for its use with a penalty) with the L1 cost of a segment,
//   C(x_a .. x_b) = sum |x_i - median(x_a .. x_b)|,
// which is robust to the spikes per-second throughput has. A segment's best
// split t (both parts >= min_segment_intervals) minimises C(left) +
// C(right); the segment whose best split gains most is split first, while
// the gain exceeds the penalty and fewer than max_changes were made.
// Penalty (unless given): penalty_factor (3) * sigma * ln(n), with the
// robust noise scale sigma = 1.4826 * MAD(first differences) / sqrt(2)
// (differences cancel level shifts; MAD ignores spikes; 1.4826 makes MAD a
// Gaussian sigma; /sqrt(2) because a difference holds two noises). If that
// MAD is 0 (quantised data), sigma = mean |difference| * sqrt(pi) / 2.
// The L1 cost is in the data's unit, so is the penalty: a BIC-like
// "log(n) per parameter" scaled by the noise.
// Then the magnitude gate: while two adjacent segments' medians differ by
// less than magnitude_gate (5 %) relative to the earlier one, the closest
// pair is merged. Each remaining boundary is then moved to its exact L1
// optimum between its neighbours' ends (a single pass), and the gate is
// applied once more.
//
// Why not PELT: exact L1 PELT is O(n^2) when changes are few (pruning needs
// many changes) - seconds on a day of 1 s samples. Binary segmentation
// with running medians (two heaps) computes every split's exact L1 cost of
// a segment of m values in O(m log m), so a series costs O(n log n) per
// level of splitting (tens of ms for 86,400 values).
//
// Units: values in any unit; times in seconds since the run started.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/interval_series.h"

namespace flashmark {

struct ChangePointOptions {
  size_t min_segment_intervals = 60;
  double penalty = 0;          // > 0: used as is (data unit); 0: automatic
  double penalty_factor = 3.0;
  double magnitude_gate = 0.05;  // relative difference of medians
  size_t max_changes = 100;      // splits before the gate
};

struct Segment {
  size_t first_index = 0;
  size_t last_index = 0;  // inclusive
  double start_seconds = 0;
  double end_seconds = 0;  // end of last_index
  size_t count = 0;
  double median = 0, p25 = 0, p75 = 0;  // type 7 (quantiles.h)
};

struct ChangePoint {
  size_t index = 0;         // first interval of the new segment
  double time_seconds = 0;  // its start
  double median_before = 0;
  double median_after = 0;
  double relative_change_percent = 0;  // 100 * (after - before) / |before|
};

struct ChangePointResult {
  std::vector<Segment> segments;  // cover the series, in time order
  std::vector<ChangePoint> changes;
  double noise_scale = 0;  // sigma above
  double penalty = 0;      // as used
  size_t splits = 0;       // boundaries found before the gate
};

ChangePointResult DetectChangePoints(const IntervalSeries& series,
                                     const ChangePointOptions& options = {});

// "t=4012 s: 380 -> 301 MiB/s (-21 %)": time rounded to the second, values
// with FormatSignificant, change rounded to a whole percent with its sign.
std::string FormatChange(const ChangePoint& change, std::string_view unit);

// Three significant digits without exponent (0.0123, 3.85, 38.5, 380);
// values of 1000 and more print as whole numbers (1234, 24400).
std::string FormatSignificant(double value);

}  // namespace flashmark
