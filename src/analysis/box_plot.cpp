#include "analysis/box_plot.h"

#include <algorithm>

#include "analysis/quantiles.h"

namespace flashmark {

BoxPlot TukeyBoxPlot(std::span<const double> values) {
  BoxPlot box;
  if (values.empty()) return box;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  box.count = sorted.size();
  box.q1 = QuantileOfSorted(sorted, 0.25);
  box.median = QuantileOfSorted(sorted, 0.5);
  box.q3 = QuantileOfSorted(sorted, 0.75);
  box.iqr = box.q3 - box.q1;
  box.lower_fence = box.q1 - 1.5 * box.iqr;
  box.upper_fence = box.q3 + 1.5 * box.iqr;
  // Q1 and Q3 lie inside the fences, and the data reach Q1 and Q3, so both
  // whiskers exist.
  const auto first_in =
      std::lower_bound(sorted.begin(), sorted.end(), box.lower_fence);
  const auto past_in =
      std::upper_bound(sorted.begin(), sorted.end(), box.upper_fence);
  box.lower_whisker = *first_in;
  box.upper_whisker = *(past_in - 1);
  box.outliers.assign(sorted.begin(), first_in);
  box.outliers.insert(box.outliers.end(), past_in, sorted.end());
  return box;
}

}  // namespace flashmark
