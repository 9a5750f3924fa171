// Student's t, for tests whose variance is estimated from few values: in a
// normal deviate's terms (NormalFromT, Wallace 1959) and its exact
// two-sided tail probability. Pure; thread-safe.
#pragma once

namespace flashmark {

// The normal deviate with the tail probability of Student's t with df
// degrees of freedom, so that a variance estimated from few independent
// values does not pass for a known one. Sign of t kept off: t >= 0.
double NormalFromT(double t, double df);

// P(|T| >= |t|) for Student's t with df > 0 degrees of freedom (not
// necessarily whole: Welch's), by the regularised incomplete beta
// function I_{df/(df+t^2)}(df/2, 1/2); relative error ~1e-12.
double TwoSidedTailOfT(double t, double df);

}  // namespace flashmark
