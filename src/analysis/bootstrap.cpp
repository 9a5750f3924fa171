#include "analysis/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "analysis/quantiles.h"
#include "workload/random.h"

namespace flashmark {
namespace {

// Draws medians of circular block resamples of one series. Works on ranks
// (position of each value in the sorted series, ties broken by index) so
// that a value's order is an integer; see the header for the band method.
class BlockMedianSampler {
 public:
  BlockMedianSampler(std::span<const double> values, size_t block_length)
      : n_(values.size()), block_(std::clamp<size_t>(block_length, 1, n_)) {
    std::vector<uint32_t> order(n_);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return values[a] < values[b];
    });
    sorted_.resize(n_);
    rank_.resize(n_);
    for (size_t r = 0; r < n_; ++r) {
      sorted_[r] = values[order[r]];
      rank_[order[r]] = static_cast<uint32_t>(r);
    }
    // Type 7 median: h = (n - 1) / 2.
    k_low_ = (n_ - 1) / 2;
    fraction_ = (n_ - 1) % 2 == 0 ? 0.0 : 0.5;
    k_high_ = fraction_ > 0 ? k_low_ + 1 : k_low_;
    BuildBand(std::max<size_t>(
        16, static_cast<size_t>(std::ceil(4 * std::sqrt(double(n_))))));
  }

  size_t block_length() const { return block_; }

  double Median() const { return QuantileOfSorted(sorted_, 0.5); }

  double Draw(Random& random) {
    starts_.clear();
    buffer_.clear();
    size_t below = 0;
    for (size_t remaining = n_; remaining > 0;) {
      const size_t len = std::min(block_, remaining);
      const size_t s = random.Below(n_);
      starts_.push_back(s);
      below += below_prefix_[s + len] - below_prefix_[s];
      buffer_.insert(buffer_.end(), band_ranks_.begin() + band_prefix_[s],
                     band_ranks_.begin() + band_prefix_[s + len]);
      remaining -= len;
    }
    if (below <= k_low_ && k_high_ < below + buffer_.size()) {
      return MedianOfRanks(k_low_ - below);
    }
    // The median fell outside the band: redo this resample in full.
    buffer_.clear();
    size_t remaining = n_;
    for (size_t s : starts_) {
      const size_t len = std::min(block_, remaining);
      for (size_t p = s; p < s + len; ++p) {
        buffer_.push_back(rank_[p < n_ ? p : p - n_]);
      }
      remaining -= len;
    }
    const double median = MedianOfRanks(k_low_);
    if (++misses_ >= 3) BuildBand(2 * half_width_);  // too narrow: widen
    return median;
  }

 private:
  // The band holds ranks [median rank - w, median rank + w]; prefix sums run
  // over the doubled (circular) position range [0, 2n).
  void BuildBand(size_t half_width) {
    half_width_ = half_width;
    misses_ = 0;
    const size_t low = k_low_ > half_width ? k_low_ - half_width : 0;
    const size_t high = std::min(n_, k_high_ + half_width + 1);
    below_prefix_.assign(2 * n_ + 1, 0);
    band_prefix_.assign(2 * n_ + 1, 0);
    band_ranks_.clear();
    for (size_t p = 0; p < 2 * n_; ++p) {
      const uint32_t r = rank_[p < n_ ? p : p - n_];
      below_prefix_[p + 1] = below_prefix_[p] + (r < low ? 1 : 0);
      const bool in_band = r >= low && r < high;
      band_prefix_[p + 1] = band_prefix_[p] + (in_band ? 1 : 0);
      if (in_band) band_ranks_.push_back(r);
    }
  }

  // Type 7 median of a resample whose order statistic k_low_ is the k-th
  // smallest element of buffer_ (k_high_ the next one).
  double MedianOfRanks(size_t k) {
    std::nth_element(buffer_.begin(), buffer_.begin() + k, buffer_.end());
    const double low = sorted_[buffer_[k]];
    if (fraction_ == 0) return low;
    const uint32_t next =
        *std::min_element(buffer_.begin() + k + 1, buffer_.end());
    return low + fraction_ * (sorted_[next] - low);
  }

  size_t n_;
  size_t block_;
  std::vector<double> sorted_;
  std::vector<uint32_t> rank_;
  size_t k_low_ = 0, k_high_ = 0;
  double fraction_ = 0;
  size_t half_width_ = 0;
  size_t misses_ = 0;
  std::vector<uint32_t> below_prefix_;
  std::vector<uint32_t> band_prefix_;
  std::vector<uint32_t> band_ranks_;
  std::vector<size_t> starts_;
  std::vector<uint32_t> buffer_;
};

void PercentileInterval(std::vector<double>& stats, double confidence,
                        ConfidenceInterval& ci) {
  if (stats.empty()) {
    ci.low = ci.high = ci.estimate;
    return;
  }
  std::sort(stats.begin(), stats.end());
  const double alpha = 1 - std::clamp(confidence, 0.0, 1.0);
  ci.low = QuantileOfSorted(stats, alpha / 2);
  ci.high = QuantileOfSorted(stats, 1 - alpha / 2);
}

size_t BlockLengthFor(size_t n, const BootstrapOptions& options) {
  return options.block_length > 0 ? std::min(options.block_length, n)
                                  : DefaultBlockLength(n);
}

}  // namespace

size_t DefaultBlockLength(size_t n) {
  const double length = std::round(std::cbrt(static_cast<double>(n)));
  return std::max<size_t>(1, static_cast<size_t>(length));
}

ConfidenceInterval MedianConfidenceInterval(std::span<const double> values,
                                            const BootstrapOptions& options) {
  ConfidenceInterval ci;
  if (values.empty()) return ci;
  BlockMedianSampler sampler(values, BlockLengthFor(values.size(), options));
  ci.estimate = sampler.Median();
  ci.confidence = options.confidence;
  ci.block_length = sampler.block_length();
  ci.resamples = options.resamples;
  Random random(options.seed);
  std::vector<double> stats(options.resamples);
  for (double& s : stats) s = sampler.Draw(random);
  PercentileInterval(stats, options.confidence, ci);
  return ci;
}

ConfidenceInterval MedianRatioConfidenceInterval(
    std::span<const double> numerator, std::span<const double> denominator,
    const BootstrapOptions& options) {
  ConfidenceInterval ci;
  if (numerator.empty() || denominator.empty()) return ci;
  BlockMedianSampler top(numerator, BlockLengthFor(numerator.size(), options));
  BlockMedianSampler bottom(denominator,
                            BlockLengthFor(denominator.size(), options));
  if (bottom.Median() == 0) return ci;
  ci.estimate = top.Median() / bottom.Median();
  ci.confidence = options.confidence;
  ci.block_length = top.block_length();
  ci.resamples = options.resamples;
  Random random(options.seed);
  std::vector<double> stats(options.resamples);
  for (double& s : stats) {
    const double a = top.Draw(random);
    const double b = bottom.Draw(random);
    // A zero resampled median below counts as an unbounded ratio.
    s = b != 0 ? a / b : std::numeric_limits<double>::infinity();
  }
  PercentileInterval(stats, options.confidence, ci);
  return ci;
}

}  // namespace flashmark
