#include "analysis/change_points.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>

#include "analysis/change_significance.h"
#include "analysis/l1_split.h"
#include "analysis/quantiles.h"

namespace flashmark {
namespace {

constexpr size_t kMinSegmentFloor = 10;

double MedianOf(std::span<const double> x, std::vector<double>& scratch) {
  scratch.assign(x.begin(), x.end());
  const size_t k = (scratch.size() - 1) / 2;
  std::nth_element(scratch.begin(), scratch.begin() + k, scratch.end());
  const double low = scratch[k];
  if (scratch.size() % 2 == 1) return low;
  return (low + *std::min_element(scratch.begin() + k + 1, scratch.end())) / 2;
}

double RelativeChange(double before, double after) {
  if (before != 0) return (after - before) / std::abs(before);
  return after == 0 ? 0 : std::numeric_limits<double>::infinity();
}

// 1.4826 MAD(differences) / sqrt(2); when the MAD is 0, the mean
// |difference| fallback if allowed, else 0.
double DifferenceScale(std::span<const double> x, bool fallback) {
  if (x.size() < 3) return 0;
  std::vector<double> d(x.size() - 1);
  for (size_t i = 0; i + 1 < x.size(); ++i) d[i] = x[i + 1] - x[i];
  std::vector<double> scratch;
  const double center = MedianOf(d, scratch);
  std::vector<double> deviation(d.size());
  double mean_abs = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    deviation[i] = std::abs(d[i] - center);
    mean_abs += std::abs(d[i]);
  }
  const double mad = MedianOf(deviation, scratch);
  if (mad > 0) return 1.4826 * mad / std::numbers::sqrt2;
  if (!fallback) return 0;
  return mean_abs / static_cast<double>(d.size()) *
         std::sqrt(std::numbers::pi) / 2;
}

// Long-run scale from block means (0 with fewer than 8 blocks).
double LongRunScale(std::span<const double> x, size_t block) {
  const size_t blocks = x.size() / block;
  if (blocks < 8) return 0;
  std::vector<double> means(blocks);
  for (size_t b = 0; b < blocks; ++b) {
    double sum = 0;
    for (size_t i = b * block; i < (b + 1) * block; ++i) sum += x[i];
    means[b] = sum / static_cast<double>(block);
  }
  return DifferenceScale(means, false) * std::sqrt(static_cast<double>(block));
}

// x clamped to its block's median +- limit, centred on the series' median.
std::vector<double> Winsorize(std::span<const double> x, size_t block,
                              double limit) {
  std::vector<double> scratch;
  const double center = MedianOf(x, scratch);
  std::vector<double> y(x.size());
  for (size_t first = 0; first < x.size(); first += block) {
    const size_t end = std::min(x.size(), first + block);
    const double median = MedianOf(x.subspan(first, end - first), scratch);
    for (size_t i = first; i < end; ++i) {
      y[i] = std::clamp(x[i], median - limit, median + limit) - center;
    }
  }
  return y;
}

struct Candidate {
  size_t first = 0, end = 0;  // the interval [first, end)
  size_t at = 0;              // first index of the right part
  double gain = 0;
};

// Best mean-shift split of [first, end), both parts >= min_length, from
// the prefix sums of the winsorised series; gain 0 when there is none.
Candidate BestMeanShift(const std::vector<double>& prefix, size_t first,
                        size_t end, size_t min_length) {
  Candidate c{first, end, first, 0};
  const double total = prefix[end] - prefix[first];
  const double m = static_cast<double>(end - first);
  for (size_t t = first + min_length; t + min_length <= end; ++t) {
    const double left = static_cast<double>(t - first);
    const double right = m - left;
    const double sum_left = prefix[t] - prefix[first];
    const double diff = sum_left / left - (total - sum_left) / right;
    const double gain = left * right / m * diff * diff;
    if (gain > c.gain) {
      c.gain = gain;
      c.at = t;
    }
  }
  return c;
}

// Seeded intervals inside [lo, hi), best mean-shift split in each,
// narrowest-over-threshold selection. Returns the accepted change indexes,
// ascending.
std::vector<size_t> SeededNarrowestOverThreshold(
    const std::vector<double>& prefix, size_t lo, size_t hi, size_t min_length,
    double threshold, const CancelToken& cancel) {
  const size_t series_end = prefix.size() - 1;
  // A best split at an end of its admissible range is forced by the
  // minimum length (the change lies outside it): another interval, shifted,
  // holds that change inside; unless the end is the series' own.
  std::vector<Candidate> candidates;
  const auto consider = [&](size_t first, size_t end) {
    if (cancel.cancelled()) return;
    const Candidate c = BestMeanShift(prefix, first, end, min_length);
    if (!(c.gain > threshold)) return;
    if (first > 0 && c.at == first + min_length) return;
    if (end < series_end && c.at == end - min_length) return;
    candidates.push_back(c);
  };
  const size_t n = hi - lo;
  for (size_t length = n; length >= 2 * min_length;) {
    const size_t shift = std::max<size_t>(1, length / 2);
    size_t first = lo;
    for (; first + length <= hi; first += shift)
      consider(first, first + length);
    if (first - shift + length < hi) consider(hi - length, hi);
    if (length == 2 * min_length) break;
    length = std::max(2 * min_length, (length + 1) / 2);
  }

  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& a, const Candidate& b) {
              const size_t la = a.end - a.first, lb = b.end - b.first;
              return la != lb ? la < lb : a.gain > b.gain;
            });
  std::vector<size_t> accepted;  // kept sorted
  for (const Candidate& c : candidates) {
    const auto inside = std::upper_bound(accepted.begin(), accepted.end(),
                                         c.first);  // first > c.first
    if (inside != accepted.end() && *inside < c.end) continue;
    accepted.insert(std::upper_bound(accepted.begin(), accepted.end(), c.at),
                    c.at);
  }
  return accepted;
}

// Narrowest-over-threshold drops every interval holding an accepted change,
// so a change close to another can go unseen, and a narrow interval places
// its change less precisely. So each pass's changes move to their best
// mean-shift position between their neighbours, and each new segment is
// searched again, until no segment yields a change.
std::vector<size_t> FindChanges(std::span<const double> y, size_t min_length,
                                double threshold, const CancelToken& cancel) {
  std::vector<double> prefix(y.size() + 1, 0.0);
  for (size_t i = 0; i < y.size(); ++i) prefix[i + 1] = prefix[i] + y[i];
  std::vector<size_t> changes;
  std::vector<std::pair<size_t, size_t>> pending = {{0, y.size()}};
  while (!pending.empty() && !cancel.cancelled()) {
    const auto [lo, hi] = pending.back();
    pending.pop_back();
    if (hi - lo < 2 * min_length) continue;
    std::vector<size_t> bounds = SeededNarrowestOverThreshold(
        prefix, lo, hi, min_length, threshold, cancel);
    if (bounds.empty()) continue;
    const size_t found = bounds.size();
    bounds.insert(bounds.begin(), lo);
    bounds.push_back(hi);
    for (size_t k = 1; k <= found; ++k) {
      const Candidate c =
          BestMeanShift(prefix, bounds[k - 1], bounds[k + 1], min_length);
      if (c.gain > 0) bounds[k] = c.at;
    }
    for (size_t k = 1; k <= found + 1; ++k) {
      pending.emplace_back(bounds[k - 1], bounds[k]);
      if (k <= found) changes.push_back(bounds[k]);
    }
  }
  std::sort(changes.begin(), changes.end());
  return changes;
}

// Segments as [start_k, start_{k+1}); merges the closest adjacent pair
// while it is under the gate. Returns whether anything was merged.
bool MergeByGate(std::span<const double> x, double gate,
                 const CancelToken& cancel, std::vector<size_t>& starts) {
  std::vector<double> scratch;
  std::vector<double> medians;
  const auto segment = [&](size_t k) {
    const size_t end = k + 1 < starts.size() ? starts[k + 1] : x.size();
    return x.subspan(starts[k], end - starts[k]);
  };
  for (size_t k = 0; k < starts.size(); ++k) {
    medians.push_back(MedianOf(segment(k), scratch));
  }
  bool merged = false;
  while (starts.size() > 1 && !cancel.cancelled()) {
    size_t closest = 0;
    double smallest = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k + 1 < starts.size(); ++k) {
      const double change =
          std::abs(RelativeChange(medians[k], medians[k + 1]));
      if (change < smallest) {
        smallest = change;
        closest = k;
      }
    }
    if (!(smallest < gate)) break;
    starts.erase(starts.begin() + static_cast<ptrdiff_t>(closest) + 1);
    medians.erase(medians.begin() + static_cast<ptrdiff_t>(closest) + 1);
    medians[closest] = MedianOf(segment(closest), scratch);
    merged = true;
  }
  return merged;
}

}  // namespace

size_t EffectiveMinSegment(size_t n, size_t min_segment_intervals, bool scale) {
  const size_t requested = std::max<size_t>(min_segment_intervals, 1);
  if (!scale) return std::min(requested, std::max<size_t>(n, 1));
  return std::min(requested, std::max(kMinSegmentFloor, n / 10));
}

ChangePointResult DetectChangePoints(const IntervalSeries& series,
                                     const ChangePointOptions& options) {
  ChangePointResult result;
  const std::span<const double> x = series.values;
  const size_t n = x.size();
  const size_t min_length = EffectiveMinSegment(
      n, options.min_segment_intervals, options.scale_min_segment);
  result.min_segment_intervals = min_length;
  // What the search needs, in the minimum the user asked for when it was
  // not scaled (and was cut to the series' length).
  const double needed_segment = options.scale_min_segment
                                    ? static_cast<double>(min_length)
                                    : static_cast<double>(std::max<size_t>(
                                          options.min_segment_intervals, 1));
  const double dt = series.interval_seconds;
  result.length = CheckLength(
      fmt::format("regime detection needs at least 2 segments of {:g} "
                  "intervals = {}",
                  needed_segment, FormatSeconds(2 * needed_segment * dt)),
      2 * needed_segment * dt, static_cast<double>(n) * dt);
  if (n == 0) return result;

  SignificanceOptions significance;
  significance.min_segment = min_length;
  significance.clamp_block = std::max<size_t>(min_length / 2, 10);
  significance.batch_length = std::max<size_t>(min_length / 3, 10);
  significance.critical_z = options.critical_z > 0
                                ? options.critical_z
                                : DefaultCriticalZ(n, min_length);
  result.critical_z = significance.critical_z;
  const std::vector<double> clamped = ClampSpikes(x, significance.clamp_block);

  // Block means of the clamped values: a stall would move its block's mean.
  result.noise_scale = DifferenceScale(x, true);
  result.long_run_scale = LongRunScale(clamped, min_length);
  const double sigma = std::max(result.noise_scale, result.long_run_scale);
  result.penalty =
      options.penalty > 0
          ? options.penalty
          : options.penalty_factor * sigma * sigma *
                std::log(static_cast<double>(std::max<size_t>(n, 2)));

  std::vector<size_t> starts = {0};
  if (result.length.enough && n >= 2 * min_length) {
    const std::vector<double> y = Winsorize(
        x, std::max<size_t>(min_length / 2, 1), 3 * result.noise_scale);
    std::vector<size_t> found =
        FindChanges(y, min_length, result.penalty, options.cancel);
    result.splits = found.size();
    starts.insert(starts.end(), found.begin(), found.end());
  }

  // Significance, then the magnitude gate, then each boundary at its exact
  // L1 optimum; again until neither removes a boundary.
  std::vector<double> z;
  starts = EliminateInsignificant(clamped, std::move(starts), significance);
  MergeByGate(x, options.magnitude_gate, options.cancel, starts);
  for (size_t k = 1; k < starts.size() && !options.cancel.cancelled(); ++k) {
    const size_t end = k + 1 < starts.size() ? starts[k + 1] : n;
    const size_t at =
        BestL1Split(x.subspan(starts[k - 1], end - starts[k - 1]), min_length);
    if (at > 0) starts[k] = starts[k - 1] + at;
  }
  for (;;) {
    const size_t before = starts.size();
    starts =
        EliminateInsignificant(clamped, std::move(starts), significance, &z);
    MergeByGate(x, options.magnitude_gate, options.cancel, starts);
    if (starts.size() == before || options.cancel.cancelled()) break;
  }
  if (options.cancel.cancelled()) return result;  // incomplete: discarded

  for (size_t k = 0; k < starts.size(); ++k) {
    const size_t end = k + 1 < starts.size() ? starts[k + 1] : n;
    const SeriesSummary s = SummarizeSeries(
        std::vector<double>(x.begin() + starts[k], x.begin() + end));
    Regime segment;
    segment.first_index = starts[k];
    segment.last_index = end - 1;
    segment.start_seconds = series.TimeAt(starts[k]);
    segment.end_seconds = series.TimeAt(end);
    segment.count = s.count;
    segment.median = s.median;
    segment.p25 = s.p25;
    segment.p75 = s.p75;
    if (k > 0) {
      const Regime& before = result.segments.back();
      ChangePoint change;
      change.index = starts[k];
      change.time_seconds = segment.start_seconds;
      change.median_before = before.median;
      change.median_after = segment.median;
      change.relative_change_percent =
          100.0 * RelativeChange(before.median, segment.median);
      change.z = z[k - 1];
      result.changes.push_back(change);
    }
    result.segments.push_back(segment);
  }
  return result;
}

std::string FormatSignificant(double value) {
  if (value == 0 || !std::isfinite(value)) return fmt::format("{}", value);
  const auto decimals_for = [](double v) {
    const int exponent = static_cast<int>(std::floor(std::log10(std::abs(v))));
    return std::max(0, 2 - exponent);
  };
  int decimals = decimals_for(value);
  const double rounded =
      std::round(value * std::pow(10.0, decimals)) / std::pow(10.0, decimals);
  if (rounded != 0) decimals = std::min(decimals, decimals_for(rounded));
  return fmt::format("{:.{}f}", value, decimals);
}

std::string FormatChange(const ChangePoint& change, std::string_view unit) {
  double percent = std::round(change.relative_change_percent);
  if (percent == 0) percent = 0;  // no "-0"
  return fmt::format("t={:.0f} s: {} -> {} {} ({:+.0f} %)", change.time_seconds,
                     FormatSignificant(change.median_before),
                     FormatSignificant(change.median_after), unit, percent);
}

}  // namespace flashmark
