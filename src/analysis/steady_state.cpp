#include "analysis/steady_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace flashmark {
namespace {

double Percent(double part, double whole) {
  return whole != 0 ? 100.0 * part / std::abs(whole) : 0.0;
}

}  // namespace

size_t IntervalsPerRound(double interval_seconds, double round_seconds) {
  if (!(interval_seconds > 0) || !(round_seconds > 0)) return 1;
  const double k = std::round(round_seconds / interval_seconds);
  return k < 1 ? 1 : static_cast<size_t>(k);
}

double SniaWindow::WorstRatio() const {
  const auto ratio = [](double measured, double allowed) {
    if (allowed > 0) return measured / allowed;
    return measured > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  };
  return std::max(ratio(data_excursion, allowed_data_excursion),
                  ratio(slope_excursion, allowed_slope_excursion));
}

std::vector<double> RoundMeans(const IntervalSeries& series,
                               double round_seconds) {
  const size_t k = IntervalsPerRound(series.interval_seconds, round_seconds);
  const size_t rounds = series.size() / k;
  std::vector<double> means(rounds);
  for (size_t r = 0; r < rounds; ++r) {
    double sum = 0;
    for (size_t i = r * k; i < (r + 1) * k; ++i) sum += series.values[i];
    means[r] = sum / static_cast<double>(k);
  }
  return means;
}

SniaWindow EvaluateSniaWindow(std::span<const double> round_values,
                              const SniaOptions& options) {
  SniaWindow w;
  w.round_values.assign(round_values.begin(), round_values.end());
  const size_t m = round_values.size();
  if (m < 2) return w;

  double sum = 0;
  for (double y : round_values) sum += y;
  w.average = sum / static_cast<double>(m);
  const auto [low, high] =
      std::minmax_element(round_values.begin(), round_values.end());
  w.data_excursion = *high - *low;

  // Least squares with centred x: b = sum (x - xbar)(y - ybar) / sum
  // (x - xbar)^2, a = ybar - b xbar.
  const double x_mean = (static_cast<double>(m) - 1) / 2;
  double sxy = 0, sxx = 0;
  for (size_t x = 0; x < m; ++x) {
    const double dx = static_cast<double>(x) - x_mean;
    sxy += dx * (round_values[x] - w.average);
    sxx += dx * dx;
  }
  w.slope = sxy / sxx;
  w.intercept = w.average - w.slope * x_mean;
  w.slope_excursion = std::abs(w.slope) * static_cast<double>(m - 1);

  const double scale = std::abs(w.average);
  w.allowed_data_excursion = options.data_excursion_limit * scale;
  w.allowed_slope_excursion = options.slope_excursion_limit * scale;
  w.data_excursion_percent = Percent(w.data_excursion, w.average);
  w.slope_excursion_percent = Percent(w.slope_excursion, w.average);
  w.allowed_data_excursion_percent = 100.0 * options.data_excursion_limit;
  w.allowed_slope_excursion_percent = 100.0 * options.slope_excursion_limit;
  w.data_ok = w.data_excursion <= w.allowed_data_excursion;
  w.slope_ok = w.slope_excursion <= w.allowed_slope_excursion;
  return w;
}

SniaSteadyState FindSniaSteadyState(const IntervalSeries& series,
                                    const SniaOptions& options) {
  SniaSteadyState result;
  const size_t k =
      IntervalsPerRound(series.interval_seconds, options.round_seconds);
  result.round_seconds = static_cast<double>(k) * series.interval_seconds;
  const std::vector<double> rounds = RoundMeans(series, options.round_seconds);
  result.rounds_evaluated = rounds.size();
  const size_t m = std::max<size_t>(options.window_rounds, 2);
  const double needed = static_cast<double>(m) * result.round_seconds;
  result.length = CheckLength(
      fmt::format("SNIA steady state needs at least {} rounds of {} = {}", m,
                  FormatSeconds(result.round_seconds), FormatSeconds(needed)),
      needed, static_cast<double>(series.size()) * series.interval_seconds);
  if (rounds.size() < m) return result;

  const auto place = [&](SniaWindow& w, size_t first) {
    w.first_round = first;
    w.last_round = first + m - 1;
    w.start_seconds = series.TimeAt(first * k);
    w.end_seconds = series.TimeAt((first + m) * k);
  };
  double best_ratio = std::numeric_limits<double>::infinity();
  for (size_t first = 0; first + m <= rounds.size(); ++first) {
    SniaWindow w =
        EvaluateSniaWindow(std::span(rounds).subspan(first, m), options);
    ++result.windows_evaluated;
    place(w, first);
    if (w.steady()) {
      result.reached = true;
      result.warmup_end_seconds = w.start_seconds;
      result.window = std::move(w);
      return result;
    }
    const double ratio = w.WorstRatio();
    if (ratio < best_ratio || result.window.round_values.empty()) {
      best_ratio = ratio;
      result.window = std::move(w);
    }
  }
  return result;
}

}  // namespace flashmark
