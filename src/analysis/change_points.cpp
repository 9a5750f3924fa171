#include "analysis/change_points.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <queue>
#include <span>

#include "analysis/quantiles.h"

namespace flashmark {
namespace {

// L1 cost of the values added so far about their (lower) median, kept by
// two heaps: lower_ (max-heap) holds the smaller half plus the median.
class RunningL1Cost {
 public:
  void Clear() {
    lower_.clear();
    upper_.clear();
    sum_lower_ = sum_upper_ = 0;
  }

  void Add(double v) {
    if (lower_.empty() || v <= lower_.front()) {
      Push(lower_, sum_lower_, v, std::less<>());
    } else {
      Push(upper_, sum_upper_, v, std::greater<>());
    }
    if (lower_.size() > upper_.size() + 1) {
      Push(upper_, sum_upper_, Pop(lower_, sum_lower_, std::less<>()),
           std::greater<>());
    } else if (upper_.size() > lower_.size()) {
      Push(lower_, sum_lower_, Pop(upper_, sum_upper_, std::greater<>()),
           std::less<>());
    }
  }

  double Cost() const {
    if (lower_.empty()) return 0;
    const double median = lower_.front();
    const double cost = median * static_cast<double>(lower_.size()) -
                        sum_lower_ + sum_upper_ -
                        median * static_cast<double>(upper_.size());
    return cost > 0 ? cost : 0;
  }

 private:
  template <typename Compare>
  static void Push(std::vector<double>& heap, double& sum, double v,
                   Compare compare) {
    heap.push_back(v);
    std::push_heap(heap.begin(), heap.end(), compare);
    sum += v;
  }
  template <typename Compare>
  static double Pop(std::vector<double>& heap, double& sum, Compare compare) {
    std::pop_heap(heap.begin(), heap.end(), compare);
    const double v = heap.back();
    heap.pop_back();
    sum -= v;
    return v;
  }

  std::vector<double> lower_, upper_;
  double sum_lower_ = 0, sum_upper_ = 0;
};

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

struct Split {
  size_t first = 0, end = 0;  // the segment [first, end)
  size_t at = 0;              // first index of the right part
  double gain = -1;           // cost reduction; < 0: no admissible split
  bool operator<(const Split& other) const { return gain < other.gain; }
};

class Segmenter {
 public:
  Segmenter(std::span<const double> x, size_t min_length)
      : x_(x), min_(std::max<size_t>(min_length, 1)) {}

  // Best split of [first, end) with both parts >= min_.
  Split Best(size_t first, size_t end) {
    Split split{first, end, 0, -1};
    const size_t m = end - first;
    if (m < 2 * min_) return split;
    prefix_.resize(m + 1);
    suffix_.resize(m + 1);
    running_.Clear();
    prefix_[0] = 0;
    for (size_t t = 0; t < m; ++t) {
      running_.Add(x_[first + t]);
      prefix_[t + 1] = running_.Cost();
    }
    running_.Clear();
    suffix_[m] = 0;
    for (size_t t = m; t-- > 0;) {
      running_.Add(x_[first + t]);
      suffix_[t] = running_.Cost();
    }
    double best = std::numeric_limits<double>::infinity();
    for (size_t t = min_; t <= m - min_; ++t) {
      const double cost = prefix_[t] + suffix_[t];
      if (cost < best) {
        best = cost;
        split.at = first + t;
      }
    }
    if (best < std::numeric_limits<double>::infinity()) {
      split.gain = prefix_[m] - best;
    }
    return split;
  }

 private:
  std::span<const double> x_;
  size_t min_;
  RunningL1Cost running_;
  std::vector<double> prefix_, suffix_;
};

double NoiseScale(std::span<const double> x) {
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
  return mean_abs / static_cast<double>(d.size()) *
         std::sqrt(std::numbers::pi) / 2;
}

// Segments as [start_k, start_{k+1}); merges the closest adjacent pair
// while it is under the gate. Returns whether anything was merged.
bool MergeByGate(std::span<const double> x, double gate,
                 std::vector<size_t>& starts) {
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
  while (starts.size() > 1) {
    size_t closest = 0;
    double smallest = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k + 1 < starts.size(); ++k) {
      const double change = std::abs(RelativeChange(medians[k], medians[k + 1]));
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

ChangePointResult DetectChangePoints(const IntervalSeries& series,
                                     const ChangePointOptions& options) {
  ChangePointResult result;
  const std::span<const double> x = series.values;
  const size_t n = x.size();
  if (n == 0) return result;
  const size_t min_length = std::max<size_t>(options.min_segment_intervals, 1);
  result.noise_scale = NoiseScale(x);
  result.penalty =
      options.penalty > 0
          ? options.penalty
          : options.penalty_factor * result.noise_scale *
                std::log(static_cast<double>(std::max<size_t>(n, 2)));
  // A gain must also beat rounding of the sums (constant series).
  double scale = 0;
  for (double v : x) scale += std::abs(v);
  const double tiny = 1e-12 * scale;

  Segmenter segmenter(x, min_length);
  std::vector<size_t> starts = {0};
  std::priority_queue<Split> queue;
  queue.push(segmenter.Best(0, n));
  while (!queue.empty() && starts.size() <= options.max_changes) {
    const Split split = queue.top();
    queue.pop();
    if (split.gain <= result.penalty || split.gain <= tiny) break;
    starts.push_back(split.at);
    queue.push(segmenter.Best(split.first, split.at));
    queue.push(segmenter.Best(split.at, split.end));
  }
  std::sort(starts.begin(), starts.end());
  result.splits = starts.size() - 1;

  MergeByGate(x, options.magnitude_gate, starts);
  // Refine each boundary between its neighbours' ends, left to right.
  for (size_t k = 1; k < starts.size(); ++k) {
    const size_t end = k + 1 < starts.size() ? starts[k + 1] : n;
    const Split best = segmenter.Best(starts[k - 1], end);
    if (best.gain >= 0) starts[k] = best.at;
  }
  MergeByGate(x, options.magnitude_gate, starts);

  for (size_t k = 0; k < starts.size(); ++k) {
    const size_t end = k + 1 < starts.size() ? starts[k + 1] : n;
    const SeriesSummary s = SummarizeSeries(
        std::vector<double>(x.begin() + starts[k], x.begin() + end));
    Segment segment;
    segment.first_index = starts[k];
    segment.last_index = end - 1;
    segment.start_seconds = series.TimeAt(starts[k]);
    segment.end_seconds = series.TimeAt(end);
    segment.count = s.count;
    segment.median = s.median;
    segment.p25 = s.p25;
    segment.p75 = s.p75;
    if (k > 0) {
      const Segment& before = result.segments.back();
      ChangePoint change;
      change.index = starts[k];
      change.time_seconds = segment.start_seconds;
      change.median_before = before.median;
      change.median_after = segment.median;
      change.relative_change_percent =
          100.0 * RelativeChange(before.median, segment.median);
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
  return fmt::format("t={:.0f} s: {} -> {} {} ({:+.0f} %)",
                     change.time_seconds,
                     FormatSignificant(change.median_before),
                     FormatSignificant(change.median_after), unit, percent);
}

}  // namespace flashmark
