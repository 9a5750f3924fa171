// Regime (change-point) detection on a per-interval series: "after ~4000 s
// the garbage collector kicks in and throughput drops from 380 to 300".
//
// Method, in five steps:
// 0. Minimum segment m: min_segment_intervals, scaled to the run unless
//    the user fixed it (EffectiveMinSegment below: at most a tenth of the
//    series, at least 10 values). A series shorter than 2 m is not
//    searched: it is one segment, and `length` says what the search needs.
// 1. Noise scales. Short-term sigma_s = 1.4826 * MAD(first differences) /
//    sqrt(2) (differences cancel level shifts, the MAD ignores spikes,
//    1.4826 makes a MAD a Gaussian sigma, a difference holds two noises);
//    if that MAD is 0 (quantised data), mean |difference| * sqrt(pi) / 2.
//    Long-run sigma_l: the same on the means of consecutive blocks of m
//    values (of the spike-clamped series, change_significance.h), times
//    sqrt(m), so that autocorrelated noise (which makes segment means
//    wander more than iid noise would) does not read as regimes.
//    sigma = max(sigma_s, sigma_l); sigma_l needs 8 blocks and a non-zero
//    MAD, else sigma = sigma_s.
// 2. Search for candidates. Values are winsorised to their block's median
//    +- 3 sigma_s (blocks of m / 2), so a spike weighs no more than a
//    3-sigma value. On these, seeded binary segmentation (Kovacs, Li,
//    Buehlmann & Munk 2020): intervals of length n, n/2, n/4, ... down to
//    2 m, each level shifted by half a length; in each interval the best
//    split (both sides >= m) by the mean-shift gain n_l n_r / n (mean_l -
//    mean_r)^2 (the drop of the squared-error cost, O(1) per split from
//    prefix sums). Splits whose gain exceeds the penalty are selected
//    narrowest-over-threshold (Baranowski, Chen & Fryzlewicz 2019): take
//    the narrowest interval, accept its split, drop every interval
//    containing it, repeat. A split pinned to an end of its interval's
//    admissible range (forced by the minimum length) is not a candidate,
//    unless that end is the series'. Dropping intervals can hide a change
//    next to an accepted one, and a narrow interval places a change less
//    precisely; so after each pass every accepted change moves to its best
//    mean-shift position between its neighbours, and every new segment is
//    searched again the same way, until none yields a change.
//    Penalty (unless given): penalty_factor (1.5) * sigma^2 * ln(n): low on
//    purpose, the search only proposes; step 3 decides.
// 3. Significance: adjacent-segment tests with long-run (autocorrelation-
//    aware) variances, backward elimination of the weakest boundary while
//    its z is below the critical value (change_significance.h; about
//    sqrt(2 ln(n / m)) + 2.2, calibrated so that flat series with noise up
//    to 12 % of the mean, iid or AR(1), report a change in under 2 % of
//    seeds). Then the magnitude gate: while two adjacent segments' medians
//    differ by less than magnitude_gate (2 %) relative to the earlier one,
//    the closest pair is merged.
// 4. Each remaining boundary moves to its exact L1 optimum between its
//    neighbours' ends (minimising sum |x - median| of the two segments,
//    l1_split.h), on the raw values, left to right; step 3 is applied
//    again until it removes nothing. Segments are described by medians
//    and quartiles; each change carries its z.
//
// Why not plain binary segmentation with the L1 cost: a regime that is a
// minority on both sides of every single split (a 5 min dip in a 2 h run)
// barely moves either side's median, so the L1 gain of any one split is
// about zero and the dip is never found. Why not PELT with the L1 cost:
// it is O(n^2) when changes are few (pruning needs changes), seconds on a
// day of 1 s samples. Seeded intervals see short regimes at their scale;
// a search pass is O(n log(n / min_segment_intervals)) (a few passes in
// practice), the L1 refinement O(n log n): a day of 1 s samples takes tens
// of ms.
//
// Units: values in any unit; times in seconds since the run started.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/cancel.h"
#include "analysis/interval_series.h"
#include "analysis/length_check.h"

namespace flashmark {

struct ChangePointOptions {
  // The shortest regime (m above). scale_min_segment: at most a tenth of
  // the series (EffectiveMinSegment), so that a short run is searched at
  // its own scale; false (the user's --min-segment): as given, and a
  // series shorter than two segments is not searched.
  size_t min_segment_intervals = 60;
  bool scale_min_segment = true;
  double penalty = 0;  // search; > 0: used as is (unit^2); 0: automatic
  double penalty_factor = 1.5;
  double critical_z = 0;         // > 0: used as is; 0: DefaultCriticalZ
  double magnitude_gate = 0.02;  // relative difference of medians
  CancelToken cancel;  // polled in every loop over the series (cancel.h)
};

struct Regime {
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
  double z = 0;  // significance (change_significance.h), in noise units
};

struct ChangePointResult {
  std::vector<Regime> segments;  // cover the series, in time order
  std::vector<ChangePoint> changes;
  double noise_scale = 0;            // sigma_s above
  double long_run_scale = 0;         // sigma_l above (0 when too few blocks)
  double penalty = 0;                // as used
  size_t splits = 0;                 // boundaries the search selected
  size_t min_segment_intervals = 0;  // as used
  double critical_z = 0;             // as used
  // Whether the series holds two minimum segments; when not, it is one
  // segment and length.text says what regime detection needs.
  LengthCheck length;
};

// The minimum segment used on n values. Scaled: min(min_segment_intervals,
// max(10, n / 10)), so that a short run is still searched (a 5 min run at
// 1 s for regimes of 30 s) while the floor of 10 keeps each side's noise
// estimable. Not scaled: min_segment_intervals, at least 1 and at most
// max(n, 1) (so that twice it cannot overflow).
size_t EffectiveMinSegment(size_t n, size_t min_segment_intervals,
                           bool scale = true);

ChangePointResult DetectChangePoints(const IntervalSeries& series,
                                     const ChangePointOptions& options = {});

// "t=4012 s: 380 -> 301 MiB/s (-21 %)": time rounded to the second, values
// with FormatSignificant, change rounded to a whole percent with its sign.
std::string FormatChange(const ChangePoint& change, std::string_view unit);

// Three significant digits without exponent (0.0123, 3.85, 38.5, 380);
// values of 1000 and more print as whole numbers (1234, 24400).
std::string FormatSignificant(double value);

}  // namespace flashmark
