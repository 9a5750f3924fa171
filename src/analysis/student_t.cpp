#include "analysis/student_t.h"

#include <cmath>

namespace flashmark {
namespace {

// The continued fraction of the regularised incomplete beta function
// (modified Lentz), converging for x < (a + 1) / (a + b + 2).
double BetaFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  double c = 1;
  double d = 1 - (a + b) * x / (a + 1);
  if (std::abs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double step = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + step * d;
    c = 1 + step / c;
    if (std::abs(d) < kTiny) d = kTiny;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    step = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + step * d;
    c = 1 + step / c;
    if (std::abs(d) < kTiny) d = kTiny;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < kEpsilon) break;
  }
  return h;
}

// I_x(a, b), the regularised incomplete beta function.
double RegularisedBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
               a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * BetaFraction(a, b, x) / a;
  return 1 - front * BetaFraction(b, a, 1 - x) / b;
}

}  // namespace

double NormalFromT(double t, double df) {
  if (!std::isfinite(t)) return t;
  if (df > 1e6) return t;
  return (8 * df + 1) / (8 * df + 3) * std::sqrt(df * std::log1p(t * t / df));
}

double TwoSidedTailOfT(double t, double df) {
  if (!std::isfinite(t)) return std::isnan(t) ? 1.0 : 0.0;
  if (df > 1e6) return std::erfc(std::abs(t) / std::sqrt(2.0));
  return RegularisedBeta(df / 2, 0.5, df / (df + t * t));
}

}  // namespace flashmark
