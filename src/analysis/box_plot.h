// Tukey box-plot statistics (Tukey 1977, "Exploratory Data Analysis"), as
// the report draws them: box from Q1 to Q3 with the median, whiskers to the
// furthest data points inside the fences Q1 - 1.5 IQR and Q3 + 1.5 IQR,
// points beyond the fences listed as outliers.
// Quartiles: type 7 (quantiles.h; R's quantile() default, which R's own
// boxplot() does not use: it takes Tukey's hinges, so boxes can differ
// slightly for small samples).
// Units: the values' unit. Complexity: O(n log n) (one sort), O(n) memory.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace flashmark {

struct BoxPlot {
  size_t count = 0;
  double q1 = 0, median = 0, q3 = 0, iqr = 0;
  double lower_fence = 0, upper_fence = 0;      // Q1 - 1.5 IQR, Q3 + 1.5 IQR
  double lower_whisker = 0, upper_whisker = 0;  // data points
  std::vector<double> outliers;                 // ascending
};

// Empty input: all zero, no outliers.
BoxPlot TukeyBoxPlot(std::span<const double> values);

}  // namespace flashmark
