// Synthetic per-interval series with a known truth for the analysis tests:
// seeded (flashmark::Random), so every test run sees the same numbers.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "workload/random.h"

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

}  // namespace flashmark::synthetic
