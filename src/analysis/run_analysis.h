// AnalyzeRun: what `flashmark analyze` computes for one run, as a pure
// function of the stored RunResult.
//   1. the metric's per-interval series (full intervals only);
//   2. warm-up: none, a fixed duration, or auto: the SNIA PTS steady-state
//      window's start when reached, else the MSER-5 truncation point (and
//      the result says which); SNIA, MSER-5 and fio's rolling criteria are
//      always computed and reported;
//   3. on the analysed window (after the warm-up): WindowStats (median with
//      its block-bootstrap CI, quartiles, spread), regimes by change-point
//      detection, latency percentiles from merged interval histograms over
//      the window and per regime, and the per-interval p95/p99 series.
// Cost: O(n log n) plus a bootstrap; a day of 1 s intervals in well under
// a second.
#pragma once

#include <functional>
#include <vector>

#include "analysis/bootstrap.h"
#include "analysis/change_points.h"
#include "analysis/fio_steady_state.h"
#include "analysis/metric.h"
#include "analysis/mser.h"
#include "analysis/steady_state.h"
#include "analysis/window_stats.h"
#include "common/result.h"
#include "metrics/run_result.h"

namespace flashmark {

enum class WarmupMode { kNone, kFixed, kAuto };

struct AnalysisOptions {
  Metric metric = Metric::kWriteMibs;
  WarmupMode warmup = WarmupMode::kNone;
  double warmup_seconds = 0;  // kFixed
  SniaOptions snia;
  ChangePointOptions regimes;
  BootstrapOptions bootstrap;
  // Polled through the analysis (and handed to the bootstrap and the
  // change-point search in place of theirs): once cancelled, AnalyzeRun
  // returns InterruptedError().
  CancelToken cancel;
};

struct RegimeLatency {
  LatencySummary read, write, both;
};

struct RunAnalysis {
  Metric metric = Metric::kWriteMibs;
  double interval_seconds = 1;    // configured (nominal) length
  size_t intervals = 0;           // full intervals in the series
  WarmupMode warmup_mode = WarmupMode::kNone;
  std::string warmup_source;      // how the warm-up end was chosen
  double warmup_end_seconds = 0;
  size_t first_index = 0;         // first analysed value of the series
  SniaSteadyState snia;
  MserResult mser;
  FioSteadyState fio_deviation;
  FioSteadyState fio_slope;
  WindowStats window;             // of the analysed values, metric units
  ChangePointOptions regime_options;
  ChangePointResult regimes;      // times since the run started
  std::vector<RegimeLatency> regime_latency;  // one per regime
  RegimeLatency latency;          // over the analysed window
  LatencyHistogram window_histogram;  // reads and writes, analysed window
  // Measured start and end of each series interval (seconds since the run
  // started, to the ms): intervals are not index x interval_seconds.
  std::vector<double> start_times;
  std::vector<double> times;      // end of each series interval, seconds
  std::vector<double> values;     // the whole series, metric's raw unit
  std::vector<double> p95_ns, p99_ns;  // per interval of the series
};

// Visits the latency histograms of every interval of a run, in order:
// visitor(index into run.intervals, read, write). Lets a long run's
// histograms stream from the store instead of sitting in memory.
using HistogramVisitor = std::function<void(
    size_t index, const LatencyHistogram& read, const LatencyHistogram& write)>;
using HistogramScan = std::function<Status(const HistogramVisitor&)>;

// The scan over histograms held in run.intervals.
HistogramScan InMemoryHistograms(const RunResult& run);

// `run` needs its intervals' counters; histograms come from `scan` (twice:
// per-interval percentiles, then merges over the window and regimes).
// Errors: the scan's, a latency metric without histograms (usage), and
// InterruptedError() once options.cancel is cancelled.
Result<RunAnalysis> AnalyzeRun(const RunResult& run,
                               const AnalysisOptions& options,
                               const HistogramScan& scan);
// With the histograms in run.intervals; a cancelled analysis is empty.
RunAnalysis AnalyzeRun(const RunResult& run, const AnalysisOptions& options);

}  // namespace flashmark
