#include "analysis/fio_steady_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <vector>

namespace flashmark {

FioSteadyState FindFioSteadyState(const IntervalSeries& series,
                                  const FioSteadyOptions& options) {
  FioSteadyState result;
  result.limit_percent = options.limit_percent;
  const double dt = series.interval_seconds > 0 ? series.interval_seconds : 1;
  const size_t window = static_cast<size_t>(
      std::max(2.0, std::round(options.duration_seconds / dt)));
  const size_t begin =
      options.ramp_seconds > 0
          ? static_cast<size_t>(std::ceil(options.ramp_seconds / dt - 1e-9))
          : 0;
  const size_t n = series.size();
  const double needed = static_cast<double>(begin + window) * dt;
  result.length = CheckLength(
      fmt::format(
          "fio's ss={} criterion needs a window of {}{}",
          options.criterion == FioCriterion::kSlope ? "iops_slope" : "iops",
          FormatSeconds(static_cast<double>(window) * dt),
          begin > 0
              ? fmt::format(" after a ramp of {}",
                            FormatSeconds(static_cast<double>(begin) * dt))
              : ""),
      needed, static_cast<double>(n) * dt);
  if (begin >= n || n - begin < window) return result;
  const std::span<const double> y = series.values;

  // Prefix sums over the usable part, local index j = i - begin:
  // sum_y[j] = sum_{l<j} y, sum_jy[j] = sum_{l<j} l * y.
  const size_t used = n - begin;
  std::vector<double> sum_y(used + 1, 0.0), sum_jy(used + 1, 0.0);
  for (size_t j = 0; j < used; ++j) {
    sum_y[j + 1] = sum_y[j] + y[begin + j];
    sum_jy[j + 1] = sum_jy[j] + static_cast<double>(j) * y[begin + j];
  }
  const double count = static_cast<double>(window);
  const double x_mean = (count - 1) / 2;
  const double sxx = count * (count * count - 1) / 12;

  std::deque<size_t> max_q, min_q;  // indexes, values decreasing/increasing
  double best = std::numeric_limits<double>::infinity();
  for (size_t j = 0; j < used; ++j) {
    const double v = y[begin + j];
    while (!max_q.empty() && y[begin + max_q.back()] <= v) max_q.pop_back();
    while (!min_q.empty() && y[begin + min_q.back()] >= v) min_q.pop_back();
    max_q.push_back(j);
    min_q.push_back(j);
    if (j + 1 < window) continue;
    const size_t s = j + 1 - window;
    if (max_q.front() < s) max_q.pop_front();
    if (min_q.front() < s) min_q.pop_front();

    const double total = sum_y[j + 1] - sum_y[s];
    const double mean = total / count;
    double deviation = 0, slope = 0, criterion;
    if (options.criterion == FioCriterion::kMaxDeviation) {
      deviation = std::max(y[begin + max_q.front()] - mean,
                           mean - y[begin + min_q.front()]);
      criterion = 100.0 * deviation;
    } else {
      // sum_k k * y_{s+k} with k local to the window.
      const double skv =
          (sum_jy[j + 1] - sum_jy[s]) - static_cast<double>(s) * total;
      slope = (skv - x_mean * total) / sxx;
      criterion = 100.0 * std::abs(slope);
    }
    criterion = mean != 0 ? criterion / std::abs(mean)
                          : std::numeric_limits<double>::infinity();
    ++result.windows_evaluated;
    const bool holds = criterion < options.limit_percent;
    if (holds || criterion < best) {
      best = criterion;
      result.first_index = begin + s;
      result.last_index = begin + j;
      result.start_seconds = series.TimeAt(begin + s);
      result.end_seconds = series.TimeAt(begin + j + 1);
      result.mean = mean;
      result.deviation = deviation;
      result.slope = slope;
      result.criterion_percent = criterion;
    }
    if (holds) {
      result.reached = true;
      return result;
    }
  }
  return result;
}

}  // namespace flashmark
