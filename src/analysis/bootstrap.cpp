#include "analysis/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "analysis/quantiles.h"
#include "common/random.h"

namespace flashmark {
namespace {

// Draws medians of circular block resamples of one series. Works on ranks
// (position of each value in the sorted series, ties broken by index) so
// that a value's order is an integer; see the header for the band method.
// Inside the band the order statistics come from a counting pass over the
// band's ranks (no sort); a miss redoes the resample with nth_element.
class BlockMedianSampler {
 public:
  BlockMedianSampler(std::span<const double> values, size_t block_length)
      : n_(values.size()), block_(std::clamp<size_t>(block_length, 1, n_)) {
    std::vector<std::pair<double, uint32_t>> order(n_);
    for (size_t i = 0; i < n_; ++i) {
      order[i] = {values[i], static_cast<uint32_t>(i)};
    }
    std::sort(order.begin(), order.end());
    sorted_.resize(n_);
    rank_.resize(n_);
    for (size_t r = 0; r < n_; ++r) {
      sorted_[r] = order[r].first;
      rank_[order[r].second] = static_cast<uint32_t>(r);
    }
    // Type 7 median: h = (n - 1) / 2.
    k_low_ = (n_ - 1) / 2;
    fraction_ = (n_ - 1) % 2 == 0 ? 0.0 : 0.5;
    k_high_ = fraction_ > 0 ? k_low_ + 1 : k_low_;
    // 3 sqrt(n) ranks is 6 standard deviations of an iid median's rank.
    const double sqrt_n = std::sqrt(static_cast<double>(n_));
    BuildBand(std::max<size_t>(16, static_cast<size_t>(3 * sqrt_n)));
  }

  size_t block_length() const { return block_; }

  double Median() const { return QuantileOfSorted(sorted_, 0.5); }

  double Draw(Random& random) {
    ++draws_;
    // Draw every block start first, then visit the blocks with a prefetch
    // a few blocks ahead: the block table is too large for the cache.
    starts_.clear();
    for (size_t drawn = 0; drawn < n_; drawn += block_) {
      starts_.push_back(random.Below(n_));
    }
    const size_t full = n_ / block_;
    constexpr size_t kAhead = 16;
    size_t below = 0, inside = 0;
    for (size_t b = 0; b < starts_.size(); ++b) {
      if (b + kAhead < full) {
        __builtin_prefetch(&full_blocks_[starts_[b + kAhead]]);
      }
      const size_t s = starts_[b];
      uint32_t begin, end;
      if (b < full) {  // a full block: one look-up
        const BlockCounts& block = full_blocks_[s];
        below += block.below;
        begin = block.band_begin;
        end = block.band_end;
      } else {  // the cut last block
        const size_t len = n_ - full * block_;
        below += below_prefix_[s + len] - below_prefix_[s];
        begin = band_prefix_[s];
        end = band_prefix_[s + len];
      }
      inside += end - begin;
      for (uint32_t t = begin; t < end; ++t) ++counts_[band_offsets_[t]];
    }
    if (below <= k_low_ && k_high_ < below + inside) {
      const double median = MedianFromCounts(k_low_ - below);
      std::fill(counts_.begin(), counts_.end(), 0u);
      return median;
    }
    std::fill(counts_.begin(), counts_.end(), 0u);
    return DrawInFull();
  }

 private:
  // Redoes the resample of starts_ over all ranks; widens the band when
  // misses exceed 1 % of the draws (and 2 in number).
  double DrawInFull() {
    buffer_.clear();
    size_t remaining = n_;
    for (size_t s : starts_) {
      const size_t len = std::min(block_, remaining);
      for (size_t p = s; p < s + len; ++p) {
        buffer_.push_back(rank_[p < n_ ? p : p - n_]);
      }
      remaining -= len;
    }
    const size_t k = k_low_;
    std::nth_element(buffer_.begin(), buffer_.begin() + k, buffer_.end());
    const double low = sorted_[buffer_[k]];
    double median = low;
    if (fraction_ > 0) {
      const uint32_t next =
          *std::min_element(buffer_.begin() + k + 1, buffer_.end());
      median = low + fraction_ * (sorted_[next] - low);
    }
    if (++misses_ >= 3 && misses_ * 100 > draws_) BuildBand(2 * half_width_);
    return median;
  }

  // The k-th and (k+1)-th smallest (0-based) of the counted band ranks.
  double MedianFromCounts(size_t k) const {
    size_t seen = 0, i = 0;
    while (seen + counts_[i] <= k) seen += counts_[i++];
    const double low = sorted_[band_low_ + i];
    if (fraction_ == 0) return low;
    if (seen + counts_[i] <= k + 1) {  // the next one is the next rank seen
      ++i;
      while (counts_[i] == 0) ++i;
    }
    return low + fraction_ * (sorted_[band_low_ + i] - low);
  }

  // The band holds ranks [k_low - w, k_high + w]; prefix sums run over the
  // doubled (circular) position range [0, 2n).
  void BuildBand(size_t half_width) {
    half_width_ = half_width;
    misses_ = 0;
    draws_ = 0;
    band_low_ = k_low_ > half_width ? k_low_ - half_width : 0;
    const size_t high = std::min(n_, k_high_ + half_width + 1);
    counts_.assign(high - band_low_, 0u);
    below_prefix_.assign(2 * n_ + 1, 0);
    band_prefix_.assign(2 * n_ + 1, 0);
    band_offsets_.clear();
    for (size_t p = 0; p < 2 * n_; ++p) {
      const uint32_t r = rank_[p < n_ ? p : p - n_];
      below_prefix_[p + 1] = below_prefix_[p] + (r < band_low_ ? 1 : 0);
      const bool in_band = r >= band_low_ && r < high;
      band_prefix_[p + 1] = band_prefix_[p] + (in_band ? 1 : 0);
      if (in_band) {
        band_offsets_.push_back(static_cast<uint32_t>(r - band_low_));
      }
    }
    full_blocks_.resize(n_);
    for (size_t p = 0; p < n_; ++p) {
      full_blocks_[p] = {below_prefix_[p + block_] - below_prefix_[p],
                         band_prefix_[p], band_prefix_[p + block_]};
    }
  }

  // Per start position, a full block's count below the band and its range
  // in band_offsets_: one look-up per block drawn.
  struct BlockCounts {
    uint32_t below;
    uint32_t band_begin;
    uint32_t band_end;
  };

  size_t n_;
  size_t block_;
  std::vector<double> sorted_;
  std::vector<uint32_t> rank_;
  size_t k_low_ = 0, k_high_ = 0;
  double fraction_ = 0;
  size_t half_width_ = 0;
  size_t band_low_ = 0;
  size_t misses_ = 0;
  size_t draws_ = 0;
  std::vector<uint32_t> below_prefix_;
  std::vector<uint32_t> band_prefix_;
  std::vector<uint32_t> band_offsets_;  // rank - band_low_, position order
  std::vector<BlockCounts> full_blocks_;
  std::vector<uint32_t> counts_;
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
  for (size_t i = 0; i < stats.size(); ++i) {
    if (i % 16 == 0 && options.cancel.cancelled()) break;
    stats[i] = sampler.Draw(random);
  }
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
  for (size_t i = 0; i < stats.size(); ++i) {
    if (i % 16 == 0 && options.cancel.cancelled()) break;
    double& s = stats[i];
    const double a = top.Draw(random);
    const double b = bottom.Draw(random);
    // A zero resampled median below counts as an unbounded ratio.
    s = b != 0 ? a / b : std::numeric_limits<double>::infinity();
  }
  PercentileInterval(stats, options.confidence, ci);
  return ci;
}

}  // namespace flashmark
