// Synthetic per-interval series with a known truth for the analysis tests:
// seeded (flashmark::Random), so every test run sees the same numbers.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "common/random.h"

namespace flashmark::synthetic {

// Standard normal deviate (Box-Muller).
inline double Gaussian(Random& random) {
  const double u1 = 1.0 - random.Unit();  // (0, 1]
  const double u2 = random.Unit();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// level * (1 + relative_noise * N(0, 1)) for `count` intervals.
inline std::vector<double> FlatSeries(size_t count, double level,
                                      double relative_noise, uint64_t seed) {
  Random random(seed);
  std::vector<double> values(count);
  for (double& v : values) v = level * (1 + relative_noise * Gaussian(random));
  return values;
}

// before until `step_index`, after from it on; relative Gaussian noise.
inline std::vector<double> StepSeries(size_t count, size_t step_index,
                                      double before, double after,
                                      double relative_noise, uint64_t seed) {
  Random random(seed);
  std::vector<double> values(count);
  for (size_t i = 0; i < count; ++i) {
    const double level = i < step_index ? before : after;
    values[i] = level * (1 + relative_noise * Gaussian(random));
  }
  return values;
}

// Warm-up decaying into a plateau, 1 s intervals:
// amplitude * exp(-t / tau) + plateau + sigma * N(0, 1), t = i + 0.5.
inline std::vector<double> DecaySeries(size_t count, double amplitude,
                                       double tau, double plateau, double sigma,
                                       uint64_t seed) {
  Random random(seed);
  std::vector<double> values(count);
  for (size_t i = 0; i < count; ++i) {
    const double t = static_cast<double>(i) + 0.5;
    values[i] =
        amplitude * std::exp(-t / tau) + plateau + sigma * Gaussian(random);
  }
  return values;
}

// AR(1): x_i = phi x_{i-1} + sigma e_i, around `level`, started from its
// stationary distribution.
inline std::vector<double> Ar1Series(size_t count, double level, double phi,
                                     double sigma, uint64_t seed) {
  Random random(seed);
  std::vector<double> values(count);
  double x = sigma / std::sqrt(1 - phi * phi) * Gaussian(random);
  for (double& v : values) {
    v = level + x;
    x = phi * x + sigma * Gaussian(random);
  }
  return values;
}

// The noise of a synthetic throughput series, relative to its level:
// AR(1) with coefficient phi and marginal standard deviation `relative`
// (phi = 0: iid Gaussian), started from its stationary distribution; a
// share `spike_rate` of the intervals (drawn independently) is multiplied
// by `spike_factor` (a stall, or a burst when > 1).
struct Noise {
  double relative = 0.05;
  double phi = 0;
  double spike_rate = 0;
  double spike_factor = 0.3;
};

// level(i) * (1 + e_i) for i in [0, count), e_i as `noise` says; level is
// any callable size_t -> double. Seeded: the same arguments, the same values.
template <typename Level>
std::vector<double> NoisySeries(size_t count, Level level, const Noise& noise,
                                uint64_t seed) {
  Random random(seed);
  std::vector<double> values(count);
  const double innovation =
      noise.relative * std::sqrt(1 - noise.phi * noise.phi);
  double e = noise.relative * Gaussian(random);
  for (size_t i = 0; i < count; ++i) {
    double v = level(i) * (1 + e);
    if (noise.spike_rate > 0 && random.Unit() < noise.spike_rate) {
      v *= noise.spike_factor;
    }
    values[i] = v;
    e = noise.phi * e + innovation * Gaussian(random);
  }
  return values;
}

// Exponential warm-up into a plateau, relative noise around the curve:
// (plateau + amplitude exp(-t / tau)) (1 + e_i), t = i + 0.5.
inline std::vector<double> RelativeDecaySeries(size_t count, double amplitude,
                                               double tau, double plateau,
                                               const Noise& noise,
                                               uint64_t seed) {
  return NoisySeries(
      count,
      [&](size_t i) {
        return plateau +
               amplitude * std::exp(-(static_cast<double>(i) + 0.5) / tau);
      },
      noise, seed);
}

// A cliff: `before` for the first `at` values, then `after` for the rest
// (count - at), each with its own noise (a garbage-collection regime is
// often much noisier than the one before it).
inline std::vector<double> CliffSeries(size_t count, size_t at, double before,
                                       const Noise& noise_before, double after,
                                       const Noise& noise_after,
                                       uint64_t seed) {
  std::vector<double> values = NoisySeries(
      at, [&](size_t) { return before; }, noise_before, seed);
  const std::vector<double> tail = NoisySeries(
      count - at, [&](size_t) { return after; }, noise_after,
      seed ^ 0x9e3779b97f4a7c15ull);
  values.insert(values.end(), tail.begin(), tail.end());
  return values;
}

}  // namespace flashmark::synthetic
