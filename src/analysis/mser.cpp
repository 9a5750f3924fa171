#include "analysis/mser.h"

#include <fmt/format.h>

#include <vector>

namespace flashmark {

MserResult FindMserTruncation(const IntervalSeries& series, size_t batch_size) {
  MserResult result;
  if (batch_size == 0) batch_size = 1;
  result.batch_size = batch_size;
  const size_t n = series.size() / batch_size;
  result.batches = n;
  const double needed = static_cast<double>(kMserTrustedBatches) *
                        static_cast<double>(batch_size) *
                        series.interval_seconds;
  result.length = CheckLength(
      fmt::format("MSER-{} needs at least {} batches of {} intervals = {}",
                  batch_size, kMserTrustedBatches, batch_size,
                  FormatSeconds(needed)),
      needed, static_cast<double>(series.size()) * series.interval_seconds);
  if (n < 2) return result;

  std::vector<double> z(n);
  double grand = 0;
  for (size_t b = 0; b < n; ++b) {
    double sum = 0;
    for (size_t i = b * batch_size; i < (b + 1) * batch_size; ++i) {
      sum += series.values[i];
    }
    z[b] = sum / static_cast<double>(batch_size);
    grand += z[b];
  }
  grand /= static_cast<double>(n);

  // Suffix sums of c = Z - grand and c^2, walking d from n-1 down to 0;
  // sum_{i>=d} (Z_i - mean_d)^2 = S2 - S1^2 / (n - d).
  const size_t bound = n / 2;
  double s1 = 0, s2 = 0;
  double best = 0;
  size_t best_d = 0;
  bool have = false;
  for (size_t d = n; d-- > 0;) {
    const double c = z[d] - grand;
    s1 += c;
    s2 += c * c;
    if (d > bound) continue;
    const double kept = static_cast<double>(n - d);
    double sse = s2 - s1 * s1 / kept;
    if (sse < 0) sse = 0;  // rounding
    const double mser = sse / (kept * kept);
    if (!have || mser <= best) {  // <=: ties go to the smaller d
      best = mser;
      best_d = d;
      have = true;
    }
  }
  result.valid = true;
  result.truncated_batches = best_d;
  result.truncated_intervals = best_d * batch_size;
  result.warmup_end_seconds = series.TimeAt(result.truncated_intervals);
  result.mser = best;
  result.at_bound = best_d == bound;
  return result;
}

}  // namespace flashmark
