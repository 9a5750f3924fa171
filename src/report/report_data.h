// The data behind a report (HTML, Markdown, CSV): for each run its tables,
// thinned series for drawing, latency CDF, steady state and regimes; for a
// sweep the per-group box plots and medians; for devices the comparison
// with confidence intervals and costs; and which charts fit. Produces the
// JSON of the "flashmark.report" schema (web/report.js draws it). Pure:
// the runs arrive loaded and analysed.
//
// Charts: every report has the per-run time series, IOPS/latency and
// latency distribution; runs grouped by a numeric parameter (a sweep:
// --by threads, or the one config field that differs between the runs)
// add box plots, latency vs parameter and median vs parameter; runs
// grouped by a name (--by device) or plain runs add box plots and the
// comparison.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "common/result.h"
#include "store/run_store.h"

namespace flashmark {

// Columns of a run's latency heatmap (AnalysisOptions::heatmap_columns).
inline constexpr size_t kReportHeatmapColumns = 240;

struct ReportRun {
  StoredRun stored;      // intervals without histograms are enough
  RunAnalysis analysis;  // with its window_histogram (and heatmap)
  // --trace-latency: each interval's parts at their p50 (ns: flashmark,
  // queue, device, completion), by position in stored.run.intervals;
  // empty when the run was not traced (report/stored_run_stream.h).
  std::vector<std::array<double, 4>> split_p50_ns;
};

struct ReportInput {
  std::vector<ReportRun> runs;
  std::optional<std::string> by;  // tag or run parameter to group by
  // The parameter axis of grouped charts: kAuto is log2 when every value
  // is a power of two over a 4x span or more, else linear.
  enum class Axis { kAuto, kLinear, kLog2 } x_axis = Axis::kAuto;
  std::string title;
  std::string generated;     // when, for people
  size_t max_points = 1000;  // per run and series, for drawing
};

Result<nlohmann::json> BuildReportData(const ReportInput& input);

// The display name of a run: its label, else "run N".
std::string RunName(const StoredRun& stored);

}  // namespace flashmark
