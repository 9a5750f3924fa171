// SteadyStateMonitor: the SNIA steady-state criterion of steady_state.h
// evaluated online, for `run --until-steady`. Fed one interval value at a
// time (in order, from the run's start), it answers "steady now?".
//
// Rounds and windows are exactly those of FindSniaSteadyState over the
// same values: the first window the monitor reports steady is the one
// FindSniaSteadyState returns (same rounds, same figures).
//
// States:
//   kWarmingUp  no steady window yet.
//   kSteady     a window of the last `window_rounds` complete rounds met
//               both criteria. Its figures are kept (steady_window()) and
//               define the band [average - L * |average|, average + L *
//               |average|], L = data_excursion_limit (20 %).
//   kLeft       a later complete round's value fell outside that band:
//               the run left the steady regime (e.g. garbage collection
//               started). One round is a mean of round_seconds of
//               intervals, so a one-second spike does not trigger it, and
//               a round outside the band differs from the steady average
//               by more than the whole excursion a steady window may hold.
//               The monitor then looks for a new steady window made only
//               of rounds from the departing round on; when it finds one it
//               returns to kSteady with that window (a new regime) and
//               departures() counts the departures.
// A caller stopping at the first steady state reads steady() after Add.
// Times are seconds since the first fed interval started.
//
// Complexity: O(1) amortised per interval (O(window_rounds) once per
// round), O(window_rounds) memory. Not thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/steady_state.h"

namespace flashmark {

class SteadyStateMonitor {
 public:
  enum class State { kWarmingUp, kSteady, kLeft };

  // interval_seconds > 0: the length of one fed interval.
  explicit SteadyStateMonitor(double interval_seconds,
                              SniaOptions options = {});

  // Feeds the next interval's value; returns the state after it.
  State Add(double value);

  State state() const { return state_; }
  bool steady() const { return state_ == State::kSteady; }
  size_t intervals() const { return intervals_; }
  size_t rounds() const { return rounds_; }
  double round_seconds() const { return round_seconds_; }
  size_t departures() const { return departures_; }
  // The window that made the state kSteady last (set once reached).
  const std::optional<SniaWindow>& steady_window() const { return window_; }
  // End of the round that left the band, while or after in kLeft.
  std::optional<double> left_at_seconds() const { return left_at_; }

 private:
  void OnRound(double round_value);

  SniaOptions options_;
  double interval_seconds_;
  size_t per_round_;
  double round_seconds_;
  size_t window_rounds_;
  State state_ = State::kWarmingUp;
  size_t intervals_ = 0;
  size_t rounds_ = 0;
  double round_sum_ = 0;
  size_t in_round_ = 0;
  std::vector<double> ring_;  // last window_rounds_ round values
  size_t candidates_ = 0;     // rounds usable for the next window
  size_t departures_ = 0;
  std::optional<SniaWindow> window_;
  std::optional<double> left_at_;
};

}  // namespace flashmark
