// MSER-5 warm-up truncation (White 1997, "An effective truncation heuristic
// for bias reduction in simulation output", Simulation 69(6); White,
// Cobb & Spratt 2000 for the batch size of 5).
//
// Method. The series is cut into n batches of `batch_size` (default 5)
// consecutive intervals (a trailing partial batch is ignored); Z_i is the
// mean of batch i. For each truncation point d in [0, floor(n / 2)]:
//   mean_d  = (1 / (n - d)) sum_{i=d}^{n-1} Z_i
//   MSER(d) = sum_{i=d}^{n-1} (Z_i - mean_d)^2 / (n - d)^2
// (batches indexed from 0, so d batches are dropped). The chosen d* is the
// smallest d minimising MSER(d); the warm-up is d* * batch_size intervals.
// A d* equal to the search bound floor(n / 2) is the heuristic's own
// warning that the series is too short or never settles (at_bound).
// Requires n >= 2 batches; otherwise valid is false. With fewer than
// kMserTrustedBatches (10) batches the answer is computed but not to be
// acted on (a truncation of one batch in four is noise): `length` says so,
// and the headline (headline.h) does not cut by it.
//
// Units: the series' unit (MSER in unit^2); times in seconds since the run
// started. Complexity: O(intervals) time, O(batches) memory (suffix sums on
// values centred on their mean, for numerical accuracy).
#pragma once

#include <cstddef>

#include "analysis/interval_series.h"
#include "analysis/length_check.h"

namespace flashmark {

struct MserResult {
  bool valid = false;
  size_t batch_size = 0;
  size_t batches = 0;
  size_t truncated_batches = 0;    // d*
  size_t truncated_intervals = 0;  // d* * batch_size
  double warmup_end_seconds = 0;   // start of the first kept interval
  double mser = 0;                 // MSER(d*)
  bool at_bound = false;           // d* == floor(batches / 2)
  // Whether the series holds kMserTrustedBatches batches: "MSER-5 needs at
  // least 10 batches of 5 intervals = 50 s; this run has 10 s".
  LengthCheck length;
};

inline constexpr size_t kMserTrustedBatches = 10;

MserResult FindMserTruncation(const IntervalSeries& series,
                              size_t batch_size = 5);

}  // namespace flashmark
