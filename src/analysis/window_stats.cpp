#include "analysis/window_stats.h"

#include <cmath>
#include <vector>

#include "analysis/quantiles.h"

namespace flashmark {

WindowStats ComputeWindowStats(std::span<const double> values,
                               const BootstrapOptions& bootstrap) {
  WindowStats stats;
  if (values.empty()) return stats;
  const SeriesSummary s =
      SummarizeSeries(std::vector<double>(values.begin(), values.end()));
  stats.count = s.count;
  stats.median = s.median;
  stats.p25 = s.p25;
  stats.p75 = s.p75;
  stats.iqr = s.p75 - s.p25;
  stats.p5 = s.p5;
  stats.p95 = s.p95;
  stats.min = s.min;
  stats.max = s.max;
  stats.mean = s.mean;
  if (values.size() > 1) {
    double squares = 0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    stats.stddev = std::sqrt(squares / static_cast<double>(values.size() - 1));
  }
  stats.cv = s.mean != 0 ? stats.stddev / std::abs(s.mean) : 0;
  stats.band_width = s.p95 - s.p5;
  stats.band_width_percent =
      s.median != 0 ? 100.0 * stats.band_width / std::abs(s.median) : 0;
  stats.median_ci = MedianConfidenceInterval(values, bootstrap);
  return stats;
}

}  // namespace flashmark
