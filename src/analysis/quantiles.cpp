#include "analysis/quantiles.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace flashmark {

double QuantileOfSorted(std::span<const double> sorted, double q) {
  const double h = (sorted.size() - 1) * std::clamp(q, 0.0, 1.0);
  const size_t low = static_cast<size_t>(std::floor(h));
  const size_t high = std::min(low + 1, sorted.size() - 1);
  return sorted[low] + (h - low) * (sorted[high] - sorted[low]);
}

SeriesSummary SummarizeSeries(std::vector<double> values) {
  SeriesSummary summary;
  if (values.empty()) return summary;
  std::sort(values.begin(), values.end());
  summary.count = values.size();
  summary.median = QuantileOfSorted(values, 0.5);
  summary.p25 = QuantileOfSorted(values, 0.25);
  summary.p75 = QuantileOfSorted(values, 0.75);
  summary.p5 = QuantileOfSorted(values, 0.05);
  summary.p95 = QuantileOfSorted(values, 0.95);
  summary.min = values.front();
  summary.max = values.back();
  summary.mean =
      std::accumulate(values.begin(), values.end(), 0.0) / values.size();
  return summary;
}

}  // namespace flashmark
