#include "analysis/steady_state.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "analysis/fio_steady_state.h"
#include "analysis/mser.h"
#include "analysis/steady_state_monitor.h"
#include "synthetic_series.h"

namespace flashmark {
namespace {

using synthetic::DecaySeries;
using synthetic::FlatSeries;
using synthetic::Gaussian;
using synthetic::StepSeries;

// A series of 1 s intervals whose 60 s rounds average exactly to `rounds`:
// each round alternates value - 30 and value + 30.
std::vector<double> SeriesOfRounds(const std::vector<double>& rounds) {
  std::vector<double> values;
  for (double r : rounds) {
    for (int i = 0; i < 60; ++i) values.push_back(r + (i % 2 ? 30 : -30));
  }
  return values;
}

TEST(SteadyStateSnia, HandComputedWindow) {
  // Rounds 100 110 90 105 95: average 500 / 5 = 100.
  // Data excursion 110 - 90 = 20 = 20 % of 100: allowed (<=).
  // Least squares, x - 2 = -2 -1 0 1 2, y - 100 = 0 10 -10 5 -5:
  //   b = (0 - 10 + 0 + 5 - 10) / (4 + 1 + 0 + 1 + 4) = -15 / 10 = -1.5,
  //   a = 100 - (-1.5)(2) = 103; slope excursion |b| * 4 = 6 = 6 %.
  const SniaWindow w = EvaluateSniaWindow({{100, 110, 90, 105, 95}}, {});
  EXPECT_DOUBLE_EQ(w.average, 100);
  EXPECT_DOUBLE_EQ(w.data_excursion, 20);
  EXPECT_DOUBLE_EQ(w.data_excursion_percent, 20);
  EXPECT_DOUBLE_EQ(w.allowed_data_excursion, 20);
  EXPECT_DOUBLE_EQ(w.allowed_data_excursion_percent, 20);
  EXPECT_DOUBLE_EQ(w.slope, -1.5);
  EXPECT_DOUBLE_EQ(w.intercept, 103);
  EXPECT_DOUBLE_EQ(w.slope_excursion, 6);
  EXPECT_DOUBLE_EQ(w.slope_excursion_percent, 6);
  EXPECT_DOUBLE_EQ(w.allowed_slope_excursion, 10);
  EXPECT_DOUBLE_EQ(w.allowed_slope_excursion_percent, 10);
  EXPECT_TRUE(w.data_ok);
  EXPECT_TRUE(w.slope_ok);
  EXPECT_TRUE(w.steady());
  EXPECT_DOUBLE_EQ(w.WorstRatio(), 1.0);  // the data excursion, at its limit

  // Rounds 90 95 100 105 110: average 100, data 20 (ok); b = (20 + 5 + 0
  // + 5 + 20) / 10 = 5, slope excursion 20 = 20 % > 10 %: not steady.
  const SniaWindow rising = EvaluateSniaWindow({{90, 95, 100, 105, 110}}, {});
  EXPECT_TRUE(rising.data_ok);
  EXPECT_DOUBLE_EQ(rising.slope, 5);
  EXPECT_DOUBLE_EQ(rising.intercept, 90);
  EXPECT_DOUBLE_EQ(rising.slope_excursion, 20);
  EXPECT_FALSE(rising.slope_ok);
  EXPECT_DOUBLE_EQ(rising.WorstRatio(), 2.0);
}

TEST(SteadyStateSnia, ScanFindsTheFirstSteadyWindow) {
  // Windows: rounds 0-4 (200 90 95 100 105) data 110 fails; rounds 1-5
  // (90 .. 110) slope fails as above; rounds 2-6 (95 100 105 110 100):
  // average 102, data 15 (14.7 %), y - 102 = -7 -2 3 8 -2, b = (14 + 2 +
  // 0 + 8 - 4) / 10 = 2, slope excursion 8 (7.8 %): steady.
  const std::vector<double> values =
      SeriesOfRounds({200, 90, 95, 100, 105, 110, 100, 110, 90, 105, 95});
  const SniaSteadyState s = FindSniaSteadyState({values, 1.0, 0.0});
  ASSERT_TRUE(s.reached);
  EXPECT_EQ(s.rounds_evaluated, 11u);
  EXPECT_EQ(s.windows_evaluated, 3u);
  EXPECT_DOUBLE_EQ(s.round_seconds, 60);
  EXPECT_EQ(s.window.first_round, 2u);
  EXPECT_EQ(s.window.last_round, 6u);
  EXPECT_DOUBLE_EQ(s.window.start_seconds, 120);
  EXPECT_DOUBLE_EQ(s.window.end_seconds, 420);
  EXPECT_DOUBLE_EQ(s.warmup_end_seconds, 120);
  EXPECT_NEAR(s.window.average, 102, 1e-9);
  EXPECT_NEAR(s.window.slope, 2, 1e-9);
  EXPECT_NEAR(s.window.slope_excursion, 8, 1e-9);
  EXPECT_NEAR(s.window.data_excursion, 15, 1e-9);
  ASSERT_EQ(s.window.round_values.size(), 5u);
  EXPECT_NEAR(s.window.round_values[3], 110, 1e-9);

  // Times follow the series' own time base.
  const SniaSteadyState later = FindSniaSteadyState({values, 1.0, 1800.0});
  EXPECT_DOUBLE_EQ(later.warmup_end_seconds, 1920);
}

TEST(SteadyStateSnia, NotReachedReportsTheClosestWindow) {
  // Window 0 fails by 110 / 23.6 = 4.7x; window 1 by max(20 / 20, 20 / 10)
  // = 2x: window 1 is the closest.
  const std::vector<double> values =
      SeriesOfRounds({200, 90, 95, 100, 105, 110});
  const SniaSteadyState s = FindSniaSteadyState({values, 1.0, 0.0});
  EXPECT_FALSE(s.reached);
  EXPECT_EQ(s.windows_evaluated, 2u);
  EXPECT_EQ(s.window.first_round, 1u);
  EXPECT_NEAR(s.window.WorstRatio(), 2.0, 1e-9);
  EXPECT_DOUBLE_EQ(s.warmup_end_seconds, 0);

  // Fewer rounds than a window: nothing to evaluate.
  const std::vector<double> short_run = SeriesOfRounds({100, 100, 100});
  const SniaSteadyState none = FindSniaSteadyState({short_run, 1.0, 0.0});
  EXPECT_FALSE(none.reached);
  EXPECT_EQ(none.rounds_evaluated, 3u);
  EXPECT_EQ(none.windows_evaluated, 0u);
  EXPECT_TRUE(none.window.round_values.empty());
}

TEST(SteadyStateSnia, RoundsFollowTheIntervalLength) {
  // 2 s intervals: 30 per 60 s round; the trailing partial round is dropped.
  const std::vector<double> values(95, 7.0);
  EXPECT_EQ(IntervalsPerRound(2.0, 60.0), 30u);
  EXPECT_EQ(RoundMeans({values, 2.0, 0.0}, 60.0).size(), 3u);
  EXPECT_EQ(IntervalsPerRound(90.0, 60.0), 1u);  // never below one
}

// Truth for the exponential warm-up 300 + 500 exp(-t / 600), computed on
// the noise-free curve. A round r (60 s) averages 300 + A_r, A_r = 500
// e^{-r/10} (10 (1 - e^{-0.1})) = 475.8 e^{-r/10}; a window starting at
// round s has values 300 + A_s e^{-0.1 k}, k = 0..4, average 300 + 0.82694
// A_s, data excursion (1 - e^{-0.4}) A_s = 0.32968 A_s and least-squares
// slope sum (k - 2) e^{-0.1 k} / 10 * A_s = -0.082338 A_s.
//   data:  0.32968 A <= 0.2 (300 + 0.82694 A)  <=>  A <= 365.2
//   slope: 4 * 0.082338 A <= 0.1 (300 + 0.82694 A)  <=>  A <= 121.63
// The slope binds: 475.8 e^{-s/10} <= 121.63 <=> s >= 13.64, so the first
// steady window starts at round 14: the warm-up ends at 840 s. The noise
// (3 % of the plateau, 9 per interval) moves a round mean by 9 / sqrt(60)
// = 1.2, so the noisy answer may move by a round (60 s), within 10 %.
TEST(SteadyStateSnia, ExponentialWarmupEndsNearTheTruth) {
  const std::vector<double> clean = DecaySeries(10800, 500, 600, 300, 0, 1);
  const SniaSteadyState exact = FindSniaSteadyState({clean, 1.0, 0.0});
  ASSERT_TRUE(exact.reached);
  EXPECT_DOUBLE_EQ(exact.warmup_end_seconds, 840);

  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<double> v = DecaySeries(10800, 500, 600, 300, 9, seed);
    const SniaSteadyState s = FindSniaSteadyState({v, 1.0, 0.0});
    ASSERT_TRUE(s.reached) << "seed " << seed;
    EXPECT_NEAR(s.warmup_end_seconds, 840, 84) << "seed " << seed;
    EXPECT_LE(s.window.data_excursion, s.window.allowed_data_excursion);
    EXPECT_LE(s.window.slope_excursion, s.window.allowed_slope_excursion);
  }
}

TEST(SteadyStateSnia, FlatNoisySeriesIsSteadyFromTheStart) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const std::vector<double> v = FlatSeries(7200, 300, 0.10, seed);
    const SniaSteadyState s = FindSniaSteadyState({v, 1.0, 0.0});
    EXPECT_TRUE(s.reached) << "seed " << seed;
    EXPECT_DOUBLE_EQ(s.warmup_end_seconds, 0) << "seed " << seed;
  }
}

TEST(SteadyStateSnia, SeriesThatNeverSettles) {
  // Garbage-collection sawtooth: 400 falling to 200 over every 480 s, then
  // back. Any 5-round window (300 s) spans over half a tooth: its round
  // values differ by ~100, a third of the average (allowed: 20 %).
  Random random(11);
  std::vector<double> sawtooth(7200);
  for (size_t i = 0; i < sawtooth.size(); ++i) {
    const double phase = static_cast<double>(i % 480) / 480;
    sawtooth[i] = (400 - 200 * phase) * (1 + 0.03 * Gaussian(random));
  }
  const SniaSteadyState s = FindSniaSteadyState({sawtooth, 1.0, 0.0});
  EXPECT_FALSE(s.reached);
  EXPECT_EQ(s.rounds_evaluated, 120u);
  EXPECT_EQ(s.windows_evaluated, 116u);
  EXPECT_GT(s.window.WorstRatio(), 1.0);
  EXPECT_FALSE(s.window.data_ok);
  EXPECT_GT(s.window.data_excursion_percent, 20);

  // Still falling: 300 down to 120 over a 20 min run (5 % noise). Each
  // window's fitted line falls 180 * 240 / 1200 = 36, >= 12 % of any
  // window's average: the slope criterion never holds.
  std::vector<double> decline(1200);
  for (size_t i = 0; i < decline.size(); ++i) {
    decline[i] = (300 - 180 * static_cast<double>(i) / 1200) *
                 (1 + 0.05 * Gaussian(random));
  }
  const SniaSteadyState d = FindSniaSteadyState({decline, 1.0, 0.0});
  EXPECT_FALSE(d.reached);
  EXPECT_EQ(d.windows_evaluated, 16u);
  EXPECT_FALSE(d.window.slope_ok);
  EXPECT_GT(d.window.slope_excursion_percent, 10);
  EXPECT_LT(d.window.slope, 0);
}

TEST(SteadyStateMonitor, AgreesWithTheBatchCriterion) {
  const std::vector<double> v = DecaySeries(10800, 500, 600, 300, 9, 2);
  const SniaSteadyState batch = FindSniaSteadyState({v, 1.0, 0.0});
  ASSERT_TRUE(batch.reached);
  SteadyStateMonitor monitor(1.0);
  size_t fed = 0;
  while (fed < v.size() && !monitor.steady()) monitor.Add(v[fed++]);
  ASSERT_TRUE(monitor.steady());
  EXPECT_EQ(fed, (batch.window.last_round + 1) * 60);
  const SniaWindow& w = *monitor.steady_window();
  EXPECT_EQ(w.first_round, batch.window.first_round);
  EXPECT_EQ(w.last_round, batch.window.last_round);
  EXPECT_DOUBLE_EQ(w.start_seconds, batch.warmup_end_seconds);
  EXPECT_DOUBLE_EQ(w.average, batch.window.average);
  EXPECT_DOUBLE_EQ(w.slope, batch.window.slope);
  EXPECT_EQ(w.round_values, batch.window.round_values);
}

TEST(SteadyStateMonitor, DetectsLeavingTheSteadyRegimeAndTheNextOne) {
  // 380 until t = 4012 s, then 285 (-25 %), 10 % noise. Steady after the
  // first window (300 s). The band is 380 +- 20 % = [304, 456]: round 66
  // ([3960, 4020) s) averages (52 * 380 + 8 * 285) / 60 = 367, inside;
  // round 67 ([4020, 4080) s) averages 285, outside: left at 4080 s. Rounds
  // 67..71 then form the next steady window (average 285), at 4320 s.
  const std::vector<double> v = StepSeries(7200, 4012, 380, 285, 0.10, 3);
  SteadyStateMonitor monitor(1.0);
  using State = SteadyStateMonitor::State;
  std::vector<std::pair<size_t, State>> transitions;
  State last = monitor.state();
  for (double value : v) {
    const State now = monitor.Add(value);
    if (now != last) transitions.emplace_back(monitor.intervals(), now);
    last = now;
  }
  ASSERT_EQ(transitions.size(), 3u);
  EXPECT_EQ(transitions[0], std::make_pair(size_t{300}, State::kSteady));
  EXPECT_EQ(transitions[1], std::make_pair(size_t{4080}, State::kLeft));
  EXPECT_EQ(transitions[2], std::make_pair(size_t{4320}, State::kSteady));
  EXPECT_EQ(monitor.departures(), 1u);
  ASSERT_TRUE(monitor.left_at_seconds().has_value());
  EXPECT_DOUBLE_EQ(*monitor.left_at_seconds(), 4080);
  EXPECT_EQ(monitor.steady_window()->first_round, 67u);
  EXPECT_NEAR(monitor.steady_window()->average, 285, 5);
  EXPECT_EQ(monitor.rounds(), 120u);
}

TEST(SteadyStateMonitor, FlatSeriesStaysSteady) {
  const std::vector<double> v = FlatSeries(7200, 300, 0.10, 4);
  SteadyStateMonitor monitor(1.0);
  for (double value : v) monitor.Add(value);
  EXPECT_TRUE(monitor.steady());
  EXPECT_EQ(monitor.departures(), 0u);
  EXPECT_EQ(monitor.steady_window()->first_round, 0u);
  EXPECT_FALSE(monitor.left_at_seconds().has_value());
}

// Hand-computed fio windows (N = 4 samples of 1 s), series
// 100 50 200 100 104 96 100:
//   window  values            mean   max|y-mean|  dev %   slope  slope %
//   0..3    100 50 200 100    112.5  87.5         77.8    15     13.3
//   1..4    50 200 100 104    113.5  86.5         76.2    6.2    5.46
//   2..5    200 100 104 96    125    75           60      -30.8  24.6
//   3..6    100 104 96 100    100    4            4       -0.8   0.8
// slope = sum (x - 1.5)(y - mean) / 5, e.g. window 3..6: (-1.5 * 0 - 0.5 *
// 4 + 0.5 * -4 + 1.5 * 0) / 5 = -0.8.
const std::vector<double> kFioSeries = {100, 50, 200, 100, 104, 96, 100};

TEST(SteadyStateFio, MaxDeviationHandComputed) {
  FioSteadyOptions options;
  options.criterion = FioCriterion::kMaxDeviation;
  options.limit_percent = 10;
  options.duration_seconds = 4;
  const FioSteadyState s = FindFioSteadyState({kFioSeries, 1.0, 0.0}, options);
  ASSERT_TRUE(s.reached);
  EXPECT_EQ(s.windows_evaluated, 4u);
  EXPECT_EQ(s.first_index, 3u);
  EXPECT_EQ(s.last_index, 6u);
  EXPECT_DOUBLE_EQ(s.start_seconds, 3);
  EXPECT_DOUBLE_EQ(s.end_seconds, 7);
  EXPECT_DOUBLE_EQ(s.mean, 100);
  EXPECT_DOUBLE_EQ(s.deviation, 4);
  EXPECT_DOUBLE_EQ(s.criterion_percent, 4);

  // fio compares strictly: a 4 % limit does not hold at 4 %.
  options.limit_percent = 4;
  const FioSteadyState strict =
      FindFioSteadyState({kFioSeries, 1.0, 0.0}, options);
  EXPECT_FALSE(strict.reached);
  EXPECT_EQ(strict.first_index, 3u);  // still the closest window
  EXPECT_DOUBLE_EQ(strict.criterion_percent, 4);
}

TEST(SteadyStateFio, SlopeHandComputed) {
  FioSteadyOptions options;
  options.criterion = FioCriterion::kSlope;
  options.limit_percent = 1;
  options.duration_seconds = 4;
  const FioSteadyState s = FindFioSteadyState({kFioSeries, 1.0, 0.0}, options);
  ASSERT_TRUE(s.reached);
  EXPECT_EQ(s.first_index, 3u);
  EXPECT_NEAR(s.slope, -0.8, 1e-9);
  EXPECT_NEAR(s.criterion_percent, 0.8, 1e-9);

  options.limit_percent = 6;  // window 1..4 (5.46 %) holds first
  const FioSteadyState early =
      FindFioSteadyState({kFioSeries, 1.0, 0.0}, options);
  ASSERT_TRUE(early.reached);
  EXPECT_EQ(early.first_index, 1u);
  EXPECT_NEAR(early.slope, 6.2, 1e-9);
  EXPECT_NEAR(early.criterion_percent, 100 * 6.2 / 113.5, 1e-9);

  options.limit_percent = 0.5;
  const FioSteadyState never =
      FindFioSteadyState({kFioSeries, 1.0, 0.0}, options);
  EXPECT_FALSE(never.reached);
  EXPECT_EQ(never.windows_evaluated, 4u);
  EXPECT_NEAR(never.criterion_percent, 0.8, 1e-9);  // the closest window
}

TEST(SteadyStateFio, RampSkipsTheFirstIntervals) {
  FioSteadyOptions options;
  options.limit_percent = 10;
  options.duration_seconds = 4;
  options.ramp_seconds = 3;
  const FioSteadyState s = FindFioSteadyState({kFioSeries, 1.0, 0.0}, options);
  ASSERT_TRUE(s.reached);
  EXPECT_EQ(s.windows_evaluated, 1u);
  EXPECT_EQ(s.first_index, 3u);

  options.ramp_seconds = 4;  // too few intervals left for a window
  EXPECT_FALSE(FindFioSteadyState({kFioSeries, 1.0, 0.0}, options).reached);
}

TEST(SteadyStateMser, HandComputed) {
  // Batches of 1: Z = 10 4 5 6 5 4, n = 6, d in [0, 3]:
  //   d=0: mean 34/6, SSE = 218 - 34^2/6 = 25.333, MSER = 25.333/36 = 0.7037
  //   d=1: 4 5 6 5 4, mean 4.8, SSE = 118 - 115.2 = 2.8, MSER = 2.8/25 = 0.112
  //   d=2: 5 6 5 4, SSE 2, MSER 2/16 = 0.125
  //   d=3: 6 5 4, SSE 2, MSER 2/9 = 0.222
  const std::vector<double> z = {10, 4, 5, 6, 5, 4};
  const MserResult one = FindMserTruncation({z, 1.0, 0.0}, 1);
  ASSERT_TRUE(one.valid);
  EXPECT_EQ(one.batches, 6u);
  EXPECT_EQ(one.truncated_batches, 1u);
  EXPECT_EQ(one.truncated_intervals, 1u);
  EXPECT_DOUBLE_EQ(one.warmup_end_seconds, 1);
  EXPECT_NEAR(one.mser, 0.112, 1e-12);
  EXPECT_FALSE(one.at_bound);

  // The same batch means from batches of 5 intervals of 2 s (+1 trailing
  // interval, ignored): the warm-up is 5 intervals = 10 s.
  std::vector<double> intervals;
  for (double v : z) {
    for (double delta : {-2.0, 1.0, 0.0, -1.0, 2.0}) {
      intervals.push_back(v + delta);
    }
  }
  intervals.push_back(1000);
  const MserResult five = FindMserTruncation({intervals, 2.0, 0.0});
  EXPECT_EQ(five.batch_size, 5u);
  EXPECT_EQ(five.batches, 6u);
  EXPECT_EQ(five.truncated_batches, 1u);
  EXPECT_EQ(five.truncated_intervals, 5u);
  EXPECT_DOUBLE_EQ(five.warmup_end_seconds, 10);
  EXPECT_NEAR(five.mser, 0.112, 1e-9);

  // Still falling at the end: MSER keeps cutting up to its bound n / 2.
  // 6 5 4 3 2 1: MSER(d) = 17.5/36, 10/25, 5/16, 2/9 -> d = 3.
  const std::vector<double> falling = {6, 5, 4, 3, 2, 1};
  const MserResult bound = FindMserTruncation({falling, 1.0, 0.0}, 1);
  EXPECT_EQ(bound.truncated_batches, 3u);
  EXPECT_NEAR(bound.mser, 2.0 / 9, 1e-12);
  EXPECT_TRUE(bound.at_bound);

  EXPECT_FALSE(FindMserTruncation({z, 1.0, 0.0}, 5).valid);  // 1 batch
}

// Truth for MSER-5 on the same warm-up: the d minimising the expected
// MSER curve, E[sum_{i>=d} (Z_i - mean_d)^2] = sum (mu_i - mu_d)^2 +
// (n - d - 1) sigma^2 / 5, with mu_i the noise-free batch means and
// sigma^2 / 5 the variance of a batch mean (9^2 / 5). It sits where the
// decay is about the noise of one batch mean (4 MiB/s), at ~2825 s.
TEST(SteadyStateMser, ExponentialWarmupEndsNearTheTruth) {
  const std::vector<double> clean = DecaySeries(10800, 500, 600, 300, 0, 1);
  const size_t n = clean.size() / 5;
  std::vector<double> mu(n, 0.0);
  for (size_t i = 0; i < 5 * n; ++i) mu[i / 5] += clean[i] / 5;
  const double batch_variance = 9.0 * 9.0 / 5;
  double best = INFINITY;
  size_t truth_batches = 0;
  for (size_t d = 0; d <= n / 2; ++d) {
    const double kept = static_cast<double>(n - d);
    double mean = 0;
    for (size_t i = d; i < n; ++i) mean += mu[i] / kept;
    double sse = 0;
    for (size_t i = d; i < n; ++i) sse += (mu[i] - mean) * (mu[i] - mean);
    const double expected = (sse + (kept - 1) * batch_variance) / (kept * kept);
    if (expected < best) {
      best = expected;
      truth_batches = d;
    }
  }
  const double truth = 5.0 * static_cast<double>(truth_batches);
  EXPECT_NEAR(truth, 2825, 50);

  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<double> v = DecaySeries(10800, 500, 600, 300, 9, seed);
    const MserResult m = FindMserTruncation({v, 1.0, 0.0});
    ASSERT_TRUE(m.valid);
    EXPECT_FALSE(m.at_bound);
    EXPECT_NEAR(m.warmup_end_seconds, truth, 0.1 * truth) << "seed " << seed;
  }
}

}  // namespace
}  // namespace flashmark
