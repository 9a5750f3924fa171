#include "analysis/change_significance.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/student_t.h"

namespace flashmark {
namespace {

constexpr double kMaxRho = 0.95;
constexpr size_t kMinBatches = 8;

double MedianInPlace(std::vector<double>& v) {
  const size_t k = (v.size() - 1) / 2;
  std::nth_element(v.begin(), v.begin() + k, v.end());
  const double low = v[k];
  if (v.size() % 2 == 1) return low;
  return (low + *std::min_element(v.begin() + k + 1, v.end())) / 2;
}

// Sums that make a segment's long-run variance, and that add up over
// segments (each about its own mean) into a pooled one.
struct Moments {
  double count = 0;     // values
  double segments = 0;  // means taken out
  double squares = 0;   // sum (y - mean)^2
  double lags = 0;      // sum (y_j - mean)(y_{j+1} - mean), inside a segment
  double batch_squares = 0;  // sum over batches of (batch mean - mean)^2
  double batches = 0;

  Moments& operator+=(const Moments& o) {
    count += o.count;
    segments += o.segments;
    squares += o.squares;
    lags += o.lags;
    batch_squares += o.batch_squares;
    batches += o.batches;
    return *this;
  }

  // Step 3 of the header, with the degrees of freedom of the estimate
  // (values per independent value: count / kappa, less the means taken
  // out; for batch means, batches less means); 0 when there is nothing to
  // estimate from.
  struct Estimate {
    double variance = 0;
    double df = 0;
  };
  Estimate LongRunVariance(size_t batch_length) const {
    const double free = count - segments;
    if (free < 2 || !(squares > 0)) return {};
    double rho = lags / squares;
    rho = std::clamp(rho + (1 + 3 * rho) * segments / count, 0.0, kMaxRho);
    const double kappa = (1 + rho) / (1 - rho);
    const double gamma0 =
        squares / std::max(0.5 * count, count - kappa * segments);
    Estimate e{gamma0 * kappa, std::max(1.0, count / kappa - segments)};
    if (batches - segments >= kMinBatches) {
      const double by_batches = static_cast<double>(batch_length) *
                                batch_squares / (batches - segments);
      if (by_batches > e.variance) e = {by_batches, batches - segments};
    }
    return e;
  }
};

// Prefix sums of y (centred on its first value, for accuracy), y^2 and
// y_j y_{j+1}: the moments of any segment in O(1) plus its batches.
class PrefixMoments {
 public:
  PrefixMoments(std::span<const double> y, size_t batch_length)
      : batch_(std::max<size_t>(batch_length, 1)),
        centre_(y.empty() ? 0 : y[0]),
        sum_(y.size() + 1, 0.0),
        squares_(y.size() + 1, 0.0),
        lags_(y.size() + 1, 0.0) {
    for (size_t i = 0; i < y.size(); ++i) {
      const double v = y[i] - centre_;
      sum_[i + 1] = sum_[i] + v;
      squares_[i + 1] = squares_[i] + v * v;
      const double next = i + 1 < y.size() ? y[i + 1] - centre_ : 0;
      lags_[i + 1] = lags_[i] + v * next;
    }
  }

  double Sum(size_t a, size_t c) const { return sum_[c] - sum_[a]; }
  double Mean(size_t a, size_t c) const {
    return Sum(a, c) / static_cast<double>(c - a);
  }

  Moments Of(size_t a, size_t c) const {
    Moments m;
    const size_t n = c - a;
    if (n == 0) return m;
    const double count = static_cast<double>(n);
    const double mean = Sum(a, c) / count;
    m.count = count;
    m.segments = 1;
    m.squares =
        std::max(0.0, (squares_[c] - squares_[a]) - count * mean * mean);
    if (n >= 2) {
      m.lags = (lags_[c - 1] - lags_[a]) -
               mean * (Sum(a, c - 1) + Sum(a + 1, c)) +
               (count - 1) * mean * mean;
    }
    const size_t batches = n / batch_;
    for (size_t k = 0; k < batches; ++k) {
      const double d = Mean(a + k * batch_, a + (k + 1) * batch_) - mean;
      m.batch_squares += d * d;
    }
    m.batches = static_cast<double>(batches);
    return m;
  }

  // z of the header, each side's long-run variance being at least the
  // pooled one of both sides (about their own means): a short segment's
  // own estimate is too noisy to trust when the search has picked it. The
  // Welch statistic's degrees of freedom (Satterthwaite 1946) turn it into
  // a normal deviate (NormalFromT).
  double Z(size_t a, size_t b, size_t c) const {
    return std::abs(SignedZ(a, b, b, c));
  }

  // The same for two segments [a, b) and [c, d) that need not touch,
  // signed: positive when the first has the larger mean.
  double SignedZ(size_t a, size_t b, size_t c, size_t d) const {
    const double difference = Mean(a, b) - Mean(c, d);
    const Moments left = Of(a, b), right = Of(c, d);
    Moments both = left;
    both += right;
    const Moments::Estimate pooled = both.LongRunVariance(batch_);
    const auto side = [&](const Moments& m) {
      Moments::Estimate own = m.LongRunVariance(batch_);
      if (own.variance < pooled.variance) own = pooled;
      return Moments::Estimate{own.variance / m.count, own.df};
    };
    const Moments::Estimate l = side(left), r = side(right);
    const double se2 = l.variance + r.variance;
    if (!(se2 > 0)) {
      return difference != 0
                 ? std::copysign(std::numeric_limits<double>::infinity(),
                                 difference)
                 : 0.0;
    }
    const double df = se2 * se2 /
                      (l.variance * l.variance / std::max(l.df, 1.0) +
                       r.variance * r.variance / std::max(r.df, 1.0));
    return std::copysign(NormalFromT(std::abs(difference) / std::sqrt(se2), df),
                         difference);
  }

 private:
  size_t batch_;
  double centre_;
  std::vector<double> sum_, squares_, lags_;
};

}  // namespace

double DefaultCriticalZ(size_t n, size_t min_segment) {
  const double ratio = static_cast<double>(n) /
                       static_cast<double>(std::max<size_t>(min_segment, 1));
  return std::sqrt(2 * std::log(std::max(ratio, 2.0))) + 2.2;
}

std::vector<double> ClampSpikes(std::span<const double> x, size_t block) {
  block = std::max<size_t>(block, 1);
  const size_t n = x.size();
  const size_t half = block / 2;
  // The running median: a median filter keeps a step's edge where it is
  // (a block median would drag the minority side of a step towards the
  // other), and ignores a stall.
  // The window [lo, hi) slides right; `sorted` holds its values in order
  // (an insertion and a removal per step: O(block) moves of doubles).
  std::vector<double> centre(n);
  std::vector<double> sorted;
  size_t lo = 0, hi = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t new_lo = i >= half ? i - half : 0;
    const size_t new_hi = std::min(n, i + half + 1);
    for (; hi < new_hi; ++hi) {
      sorted.insert(std::upper_bound(sorted.begin(), sorted.end(), x[hi]),
                    x[hi]);
    }
    for (; lo < new_lo; ++lo) {
      const auto at = std::lower_bound(sorted.begin(), sorted.end(), x[lo]);
      sorted.erase(at != sorted.end() ? at : at - 1);  // (NaN: not found)
    }
    const size_t m = sorted.size();
    centre[i] =
        m % 2 == 1 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
  }
  std::vector<double> scratch;
  std::vector<double> y(x.begin(), x.end());
  for (size_t first = 0; first < n; first += block) {
    // A short tail joins the block before it.
    size_t end = std::min(n, first + block);
    if (n - end < block / 2) end = n;
    scratch.resize(end - first);
    double mean_deviation = 0;
    for (size_t i = first; i < end; ++i) {
      scratch[i - first] = std::abs(x[i] - centre[i]);
      mean_deviation += scratch[i - first];
    }
    mean_deviation /= static_cast<double>(scratch.size());
    // MAD 0 (quantised values): the mean absolute deviation, as a
    // Gaussian scale (x sqrt(pi / 2)).
    double scale = 1.4826 * MedianInPlace(scratch);
    if (scale == 0) scale = 1.2533 * mean_deviation;
    const double limit = 4 * scale;
    for (size_t i = first; i < end; ++i) {
      y[i] = std::clamp(x[i], centre[i] - limit, centre[i] + limit);
    }
    if (end == n) break;
  }
  return y;
}

double LongRunVariance(std::span<const double> y, size_t batch_length) {
  return PrefixMoments(y, batch_length)
      .Of(0, y.size())
      .LongRunVariance(std::max<size_t>(batch_length, 1))
      .variance;
}

double AdjacentZ(std::span<const double> y, size_t first, size_t at, size_t end,
                 size_t batch_length) {
  return PrefixMoments(y, batch_length).Z(first, at, end);
}

double SettledZ(std::span<const double> y, size_t batch_length) {
  const size_t n = y.size();
  const size_t head = n / 10;
  if (head < 2) return 0;
  return PrefixMoments(y, batch_length).SignedZ(0, head, n / 2, n);
}

double TrendZ(std::span<const double> y, size_t batch_length) {
  const size_t n = y.size();
  if (n < 4) return 0;
  // Least squares y = a + b x, x = i - (n - 1) / 2.
  const double count = static_cast<double>(n);
  const double centre = (count - 1) / 2;
  double mean = 0;
  for (double v : y) mean += v;
  mean /= count;
  double sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxy += (static_cast<double>(i) - centre) * (y[i] - mean);
  }
  const double sxx = count * (count * count - 1) / 12;
  const double slope = sxy / sxx;
  std::vector<double> residuals(n);
  for (size_t i = 0; i < n; ++i) {
    residuals[i] = y[i] - mean - slope * (static_cast<double>(i) - centre);
  }
  Moments m = PrefixMoments(residuals, batch_length).Of(0, n);
  m.segments = 2;  // intercept and slope taken out
  const Moments::Estimate v =
      m.LongRunVariance(std::max<size_t>(batch_length, 1));
  // Var(b) = V / sxx for dependent residuals of long-run variance V.
  if (!(v.variance > 0)) {
    return slope != 0
               ? std::copysign(std::numeric_limits<double>::infinity(), slope)
               : 0.0;
  }
  const double t = slope / std::sqrt(v.variance / sxx);
  return std::copysign(NormalFromT(std::abs(t), v.df), t);
}

std::vector<size_t> EliminateInsignificant(std::span<const double> y,
                                           std::vector<size_t> starts,
                                           const SignificanceOptions& options,
                                           std::vector<double>* z_out) {
  const PrefixMoments moments(y, options.batch_length);
  const size_t n = y.size();
  const double critical = options.critical_z > 0
                              ? options.critical_z
                              : DefaultCriticalZ(n, options.min_segment);
  const auto end_of = [&](size_t k) {
    return k + 1 < starts.size() ? starts[k + 1] : n;
  };
  // z[k]: the boundary at starts[k] (k >= 1); z[0] unused.
  std::vector<double> z(starts.size(), 0.0);
  const auto evaluate = [&](size_t k) {
    z[k] = moments.Z(starts[k - 1], starts[k], end_of(k));
  };
  for (size_t k = 1; k < starts.size(); ++k) evaluate(k);
  // Few boundaries survive the search (tens at most), so a linear scan for
  // the weakest is cheaper than a heap.
  while (starts.size() > 1) {
    size_t weakest = 1;
    for (size_t k = 2; k < starts.size(); ++k) {
      if (z[k] < z[weakest]) weakest = k;
    }
    if (!(z[weakest] < critical)) break;
    starts.erase(starts.begin() + static_cast<ptrdiff_t>(weakest));
    z.erase(z.begin() + static_cast<ptrdiff_t>(weakest));
    if (weakest > 1) evaluate(weakest - 1);
    if (weakest < starts.size()) evaluate(weakest);
  }
  if (z_out != nullptr) z_out->assign(z.begin() + 1, z.end());
  return starts;
}

}  // namespace flashmark
