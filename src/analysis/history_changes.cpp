#include "analysis/history_changes.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "analysis/student_t.h"

namespace flashmark {
namespace {

struct SampleMoments {
  double mean = 0;
  double variance = 0;  // sample variance; 0 for one value
  size_t count = 0;
};

SampleMoments SampleMomentsOf(std::span<const double> v) {
  SampleMoments m;
  m.count = v.size();
  if (v.empty()) return m;
  double sum = 0;
  for (double x : v) sum += x;
  m.mean = sum / static_cast<double>(v.size());
  if (v.size() < 2) return m;
  double squares = 0;
  for (double x : v) squares += (x - m.mean) * (x - m.mean);
  m.variance = squares / static_cast<double>(v.size() - 1);
  return m;
}

double SampleMedian(std::span<const double> v) {
  std::vector<double> copy(v.begin(), v.end());
  const size_t k = (copy.size() - 1) / 2;
  std::nth_element(copy.begin(), copy.begin() + k, copy.end());
  const double low = copy[k];
  if (copy.size() % 2 == 1) return low;
  return (low + *std::min_element(copy.begin() + k + 1, copy.end())) / 2;
}

// Student's two-sample t (pooled variance), two-sided p. Pooled, not
// Welch's: a side of 3 runs whose spread is small by chance would pass for
// a level of its own under Welch's. Two samples without spread differ for
// sure when their means do, and not at all when they do not.
double TwoSampleP(std::span<const double> left, std::span<const double> right) {
  const SampleMoments l = SampleMomentsOf(left);
  const SampleMoments r = SampleMomentsOf(right);
  const auto nl = static_cast<double>(l.count);
  const auto nr = static_cast<double>(r.count);
  const double df = nl + nr - 2;
  const double difference = std::abs(r.mean - l.mean);
  if (df < 1) return 1;
  const double pooled = ((nl - 1) * l.variance + (nr - 1) * r.variance) / df;
  const double se2 = pooled * (1 / nl + 1 / nr);
  if (!(se2 > 0)) return difference > 0 ? 0.0 : 1.0;
  return TwoSidedTailOfT(difference / std::sqrt(se2), df);
}

// Step 1 of the header: the split of v (both sides >= min_runs) with the
// largest energy-distance statistic; none when v is too short.
std::optional<size_t> BestEnergySplit(std::span<const double> v,
                                      size_t min_runs) {
  const size_t n = v.size();
  if (n < 2 * min_runs) return std::nullopt;
  // tau = 0: everything on the right.
  double within_left = 0, cross = 0, within_right = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t k = i + 1; k < n; ++k) within_right += std::abs(v[i] - v[k]);
  std::optional<size_t> best;
  double best_q = 0;
  for (size_t tau = 1; tau + min_runs <= n; ++tau) {
    // v[tau - 1] moves from the right side to the left.
    const double y = v[tau - 1];
    double to_left = 0, to_right = 0;
    for (size_t i = 0; i + 1 < tau; ++i) to_left += std::abs(y - v[i]);
    for (size_t j = tau; j < n; ++j) to_right += std::abs(y - v[j]);
    within_left += to_left;
    within_right -= to_right;
    cross += to_right - to_left;
    if (tau < min_runs) continue;
    const auto l = static_cast<double>(tau);
    const auto r = static_cast<double>(n - tau);
    const double energy = 2 * cross / (l * r) -
                          2 * within_left / (l * (l - 1)) -
                          2 * within_right / (r * (r - 1));
    const double q = l * r / (l + r) * energy;
    if (!best || q > best_q) {
      best = tau;
      best_q = q;
    }
  }
  return best;
}

HistorySegment LevelOf(std::span<const double> values, size_t begin,
                       size_t end) {
  const auto part = values.subspan(begin, end - begin);
  const SampleMoments m = SampleMomentsOf(part);
  return {begin, end, SampleMedian(part), m.mean, std::sqrt(m.variance)};
}

// The p a split of n values must beat: max_p_value shared among the
// splits the search chose from (Bonferroni), since the best of many splits
// looks significant more often than any one.
double SplitThreshold(size_t n, size_t min_runs,
                      const HistoryOptions& options) {
  const size_t splits = n >= 2 * min_runs ? n - 2 * min_runs + 1 : 1;
  return options.max_p_value / static_cast<double>(splits);
}

double LevelRatioChange(double before, double after) {
  return before != 0 ? after / before - 1 : 0;
}

}  // namespace

HistoryChanges FindHistoryChanges(std::span<const double> values,
                                  const HistoryOptions& options) {
  HistoryChanges result;
  if (values.empty()) return result;
  const size_t min_runs = std::max<size_t>(options.min_runs, 2);
  // Step 2: binary segmentation; `bounds` holds every segment's start and
  // the end.
  std::vector<size_t> bounds = {0, values.size()};
  std::vector<std::pair<size_t, size_t>> pending = {{0, values.size()}};
  while (!pending.empty()) {
    const auto [begin, end] = pending.back();
    pending.pop_back();
    const auto part = values.subspan(begin, end - begin);
    const std::optional<size_t> split = BestEnergySplit(part, min_runs);
    if (!split) continue;
    if (TwoSampleP(part.first(*split), part.subspan(*split)) >=
        SplitThreshold(part.size(), min_runs, options))
      continue;
    bounds.push_back(begin + *split);
    pending.emplace_back(begin, begin + *split);
    pending.emplace_back(begin + *split, end);
  }
  std::sort(bounds.begin(), bounds.end());
  // Step 3: the weakest change between its neighbours merged away until
  // every change stands.
  auto p_at = [&](size_t k) {  // the change at bounds[k], 0 < k < size - 1
    return TwoSampleP(values.subspan(bounds[k - 1], bounds[k] - bounds[k - 1]),
                      values.subspan(bounds[k], bounds[k + 1] - bounds[k]));
  };
  while (bounds.size() > 2) {
    size_t weakest = 0;
    double weakest_p = -1;
    for (size_t k = 1; k + 1 < bounds.size(); ++k) {
      const double p = p_at(k);
      if (p > weakest_p) {
        weakest = k;
        weakest_p = p;
      }
    }
    if (weakest_p < SplitThreshold(bounds[weakest + 1] - bounds[weakest - 1],
                                   min_runs, options))
      break;
    bounds.erase(bounds.begin() + static_cast<std::ptrdiff_t>(weakest));
  }
  for (size_t k = 0; k + 1 < bounds.size(); ++k)
    result.segments.push_back(LevelOf(values, bounds[k], bounds[k + 1]));
  for (size_t k = 1; k < result.segments.size(); ++k) {
    const HistorySegment& before = result.segments[k - 1];
    const HistorySegment& after = result.segments[k];
    result.changes.push_back({after.begin, before.median, after.median,
                              LevelRatioChange(before.median, after.median),
                              p_at(k)});
  }
  return result;
}

NewestJudgement JudgeNewest(std::span<const double> values,
                            const HistoryChanges& changes,
                            const HistoryOptions& options) {
  NewestJudgement judgement;
  if (values.empty() || changes.segments.empty()) return judgement;
  const size_t newest = values.size() - 1;
  judgement.value = values[newest];
  const HistorySegment& last = changes.segments.back();
  const size_t min_runs = std::max<size_t>(options.min_runs, 2);
  // A level that started within the newest min_runs runs is the verdict;
  // an older one is the baseline the newest run is set against.
  if (!changes.changes.empty() && last.end - last.begin <= min_runs) {
    const HistoryChange& change = changes.changes.back();
    const HistorySegment& before =
        changes.segments[changes.segments.size() - 2];
    judgement.judged = true;
    judgement.from_change = true;
    judgement.change_index = change.index;
    judgement.baseline = before.median;
    judgement.baseline_begin = before.begin;
    judgement.baseline_end = before.end;
    judgement.relative = change.relative;
    judgement.p_value = change.p_value;
    judgement.differs = true;
    return judgement;
  }
  // The prediction test against the rest of the newest run's segment.
  const size_t begin = last.begin;
  if (newest - begin < min_runs) return judgement;
  const auto rest = values.subspan(begin, newest - begin);
  const SampleMoments m = SampleMomentsOf(rest);
  judgement.judged = true;
  judgement.baseline = SampleMedian(rest);
  judgement.baseline_begin = begin;
  judgement.baseline_end = newest;
  judgement.relative = LevelRatioChange(judgement.baseline, judgement.value);
  const double spread =
      std::sqrt(m.variance * (1 + 1 / static_cast<double>(m.count)));
  const double difference = std::abs(judgement.value - m.mean);
  judgement.p_value = spread > 0
                          ? TwoSidedTailOfT(difference / spread,
                                            static_cast<double>(m.count - 1))
                          : (difference > 0 ? 0.0 : 1.0);
  judgement.differs = judgement.p_value < options.max_p_value;
  return judgement;
}

}  // namespace flashmark
