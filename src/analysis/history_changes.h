// Change points across runs: a history of one workload's headline figure,
// one value per run in the order the runs were made, split where its
// level changes ("from run 17: 470 -> 412 MiB/s, -12 %"), so that a
// regression after a firmware or kernel update is found and named with the
// run where it starts.
//
// Method: E-Divisive means (Matteson & James 2014, alpha = 1), as Daly et
// al. (ICPE 2020) run it on MongoDB's CI history, with a deterministic
// significance test in place of the permutation test, as Apache Otava
// (formerly Hunter, Fleming et al. ICPE 2023) does, so that a history
// gives the same answer every time it is read:
// 1. In a segment, the split tau (both sides >= min_runs) maximising
//    q = L R / (L + R) * (2/(L R) sum|x-y| - sum_within_left|x-x'| /
//    C(L,2) - sum_within_right|y-y'| / C(R,2)), the energy distance of the
//    two sides (O(n^2) per segment, incremental in tau).
// 2. The split is kept when Student's two-sample t between its two sides
//    has a two-sided p below max_p_value / (the number of splits the
//    search chose from: Bonferroni, as the best of many splits looks
//    significant more often than any one); kept splits make new segments,
//    searched again the same way (binary segmentation).
// 3. Every change is tested again between its neighbours' ends, and the
//    weakest one above its threshold merged away, until none is.
// With max_p_value = 0.01, a flat history of 10 to 400 runs with Gaussian
// noise shows a change in under 1 % of histories, and a drop of twice the
// noise's sigma two thirds into 50 runs or more is found in over 98 %
// (tests/unit/history_changes_test.cpp, seeded).
//
// Units: values in any unit (one per history). Pure; thread-safe.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace flashmark {

struct HistoryOptions {
  double max_p_value = 0.01;
  size_t min_runs = 3;  // the shortest segment
};

struct HistorySegment {
  size_t begin = 0, end = 0;  // values [begin, end)
  double median = 0;
  double mean = 0;
  double stddev = 0;  // sample standard deviation; 0 for one value
};

struct HistoryChange {
  size_t index = 0;              // the first value of the new level
  double before = 0, after = 0;  // the two segments' medians
  double relative = 0;           // after / before - 1 (0 when before is 0)
  double p_value = 1;            // Student's t, two-sided, between them
};

struct HistoryChanges {
  std::vector<HistorySegment> segments;  // at least one for a non-empty input
  std::vector<HistoryChange> changes;    // segments.size() - 1, in order
};

HistoryChanges FindHistoryChanges(std::span<const double> values,
                                  const HistoryOptions& options = {});

// The newest value against the level before it. When the newest value's
// segment is a level that began within the last min_runs values, the
// change into it is the verdict (from_change);
// otherwise the newest value is set against the rest of its segment by a
// prediction test (t = (x - mean) / (sd sqrt(1 + 1/n)), n - 1 degrees of
// freedom), which finds a drop too recent to make a segment of its own.
struct NewestJudgement {
  bool judged = false;  // false: fewer than min_runs values before it
  double value = 0;     // the newest value
  double baseline = 0;  // the median it is set against
  size_t baseline_begin = 0, baseline_end = 0;  // its values
  double relative = 0;  // value (or the new level) / baseline - 1
  double p_value = 1;
  // The newest run is off its baseline: a change found (from_change), or
  // the prediction test's p below max_p_value.
  bool differs = false;
  bool from_change = false;  // the newest run's segment starts with a change
  size_t change_index = 0;   // from_change: where the new level starts
};

NewestJudgement JudgeNewest(std::span<const double> values,
                            const HistoryChanges& changes,
                            const HistoryOptions& options = {});

}  // namespace flashmark
