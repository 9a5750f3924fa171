#include "analysis/steady_state_monitor.h"

#include <algorithm>
#include <cmath>

namespace flashmark {

SteadyStateMonitor::SteadyStateMonitor(double interval_seconds,
                                       SniaOptions options)
    : options_(options),
      interval_seconds_(interval_seconds > 0 ? interval_seconds : 1.0),
      per_round_(IntervalsPerRound(interval_seconds_, options.round_seconds)),
      round_seconds_(static_cast<double>(per_round_) * interval_seconds_),
      window_rounds_(std::max<size_t>(options.window_rounds, 2)),
      ring_(window_rounds_, 0.0) {}

SteadyStateMonitor::State SteadyStateMonitor::Add(double value) {
  ++intervals_;
  round_sum_ += value;
  if (++in_round_ == per_round_) {
    const double round_value = round_sum_ / static_cast<double>(per_round_);
    round_sum_ = 0;
    in_round_ = 0;
    OnRound(round_value);
  }
  return state_;
}

void SteadyStateMonitor::OnRound(double round_value) {
  const size_t m = window_rounds_;
  ring_[rounds_ % m] = round_value;
  ++rounds_;

  if (state_ == State::kSteady) {
    const double average = window_->average;
    const double half_band = options_.data_excursion_limit * std::abs(average);
    if (std::abs(round_value - average) > half_band) {
      state_ = State::kLeft;
      ++departures_;
      left_at_ = static_cast<double>(rounds_) * round_seconds_;
      candidates_ = 1;  // the departing round starts the next window
    }
    return;
  }

  ++candidates_;
  if (candidates_ < m) return;
  std::vector<double> ordered(m);
  for (size_t i = 0; i < m; ++i) ordered[i] = ring_[(rounds_ + i) % m];
  SniaWindow w = EvaluateSniaWindow(ordered, options_);
  if (!w.steady()) return;
  w.first_round = rounds_ - m;
  w.last_round = rounds_ - 1;
  w.start_seconds = static_cast<double>(w.first_round) * round_seconds_;
  w.end_seconds = static_cast<double>(rounds_) * round_seconds_;
  window_ = std::move(w);
  state_ = State::kSteady;
}

}  // namespace flashmark
