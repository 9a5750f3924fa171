// AnalyzeRun: what `flashmark analyze` computes for one run, as a pure
// function of the stored RunResult.
//   1. the metric's per-interval series (full intervals only);
//   2. the headline (headline.h): the one steady figure, its window, the
//      regimes over the run and the SNIA verdict judged on that window;
//   3. warm-up: none, a fixed duration, or auto: the headline window's
//      start (the final regime, after the warm-up MSER-5 and SNIA find
//      inside it), with the reason (warmup_source); SNIA, MSER-5 and fio's
//      rolling criteria over the whole series are always computed and
//      reported, each with its LengthCheck for a run too short for it;
//   4. on the analysed window (after the warm-up): WindowStats (median with
//      its block-bootstrap CI, quartiles, spread), latency percentiles from
//      merged interval histograms over the window and per regime, and the
//      per-interval p95/p99 series. Regimes are the headline's: over the
//      series from regimes_first_index (the fixed cut; 0 for none and
//      auto, so that in auto mode the regimes before the final one, e.g. a
//      cliff, are listed with their latency).
// A run without a full interval, or a warm-up that leaves none, is a
// UsageError (never a zero median).
// Cost: O(n log n) plus two bootstraps; a day of 1 s intervals in well
// under a second (bench/analysis_truth.cpp times it).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bootstrap.h"
#include "analysis/change_points.h"
#include "analysis/fio_steady_state.h"
#include "analysis/headline.h"
#include "analysis/latency_heatmap.h"
#include "analysis/metric.h"
#include "analysis/mser.h"
#include "analysis/steady_state.h"
#include "analysis/throttle_finder.h"
#include "analysis/window_stats.h"
#include "common/result.h"
#include "model/run_result.h"

namespace flashmark {

struct AnalysisOptions {
  Metric metric = Metric::kWriteMibs;
  WarmupMode warmup = WarmupMode::kAuto;
  double warmup_seconds = 0;  // kFixed
  SniaOptions snia;
  ChangePointOptions regimes;
  BootstrapOptions bootstrap;
  // Polled through the analysis (and handed to the bootstrap and the
  // change-point search in place of theirs): once cancelled, AnalyzeRun
  // returns InterruptedError().
  CancelToken cancel;
  // The latency heatmap of the series intervals, in at most this many
  // columns (latency_heatmap.h); 0: none (only the report draws one).
  size_t heatmap_columns = 0;
};

struct RegimeLatency {
  LatencySummary read, write, both;
};

struct RunAnalysis {
  Metric metric = Metric::kWriteMibs;
  double interval_seconds = 1;  // configured (nominal) length
  size_t intervals = 0;         // full intervals in the series
  WarmupMode warmup_mode = WarmupMode::kNone;
  std::string warmup_source;  // how the warm-up end was chosen (why)
  double warmup_end_seconds = 0;
  size_t first_index = 0;  // first analysed value of the series
  SniaSteadyState snia;
  MserResult mser;
  FioSteadyState fio_deviation;
  FioSteadyState fio_slope;
  WindowStats window;  // of the analysed values, metric units
  Headline headline;   // the steady figure and how it was chosen
  ChangePointOptions regime_options;
  size_t regimes_first_index = 0;  // series index of the regimes' index 0
  ChangePointResult regimes;       // times since the run started
  std::vector<RegimeLatency> regime_latency;  // one per regime
  RegimeLatency latency;                      // over the analysed window
  LatencyHistogram window_histogram;  // reads and writes, analysed window
  // Measured start and end of each series interval (seconds since the run
  // started, to the ms): intervals are not index x interval_seconds.
  std::vector<double> start_times;
  std::vector<double> times;   // end of each series interval, seconds
  std::vector<double> values;  // the whole series, metric's raw unit
  // Per interval of the series (NaN where an interval has no histogram).
  std::vector<double> p50_ns, p95_ns, p99_ns, p999_ns;
  LatencyHeatmap heatmap;  // with options.heatmap_columns
  // A --detect-throttle run's bucket (throttle_finder.h); nullopt for
  // other runs. throttle_error: why none was found (throttle is then empty).
  std::optional<ThrottleFinding> throttle;
  std::string throttle_error;
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
// The defaults every command starts from, so that a run's headline reads
// the same in each: the run's own metric (DefaultMetric), warm-up auto,
// regimes of at least 60 s (scaled down for a shorter run: a tenth of it,
// at least two intervals), a 2 % gate, SNIA rounds of the run's
// --steady-round (60 s unless given), then what the run's campaign chose in
// its [analysis] table (run.spec.analysis). The second form is for a run
// still going (run --until-steady --min-time), on a metric its caller
// chooses.
AnalysisOptions DefaultAnalysisOptions(const RunResult& run);
AnalysisOptions DefaultAnalysisOptions(const JobSpec& spec, Metric metric);

// round(seconds / interval) as a count, defined for any stored interval:
// one that is not positive (a degenerate import) counts as unbounded, and
// the count is capped far below where casts or doubling overflow.
size_t IntervalsIn(double seconds, double interval);

// The headline options AnalyzeRun uses for these analysis options.
HeadlineOptions ToHeadlineOptions(const AnalysisOptions& options);

// The run's headline (headline.h) by AnalyzeRun's rule and options, without
// reading histograms: the same figure, window, regimes and reasons as
// RunAnalysis::headline. For every command that prints a run's figure
// (list, show, compare, report, the sweep table): one rule, one figure.
// Throughput and IOPS metrics only (a latency metric is a UsageError:
// AnalyzeRun reads its histograms). Errors: a run without a full interval
// or a warm-up that leaves none (usage), InterruptedError() once
// options.cancel is cancelled.
Result<Headline> RunHeadline(const RunResult& run,
                             const AnalysisOptions& options);

// `metric` (throughput or IOPS) over the headline's window: the same
// intervals as its figure (headline indexes are those of the run's full
// intervals, as MetricSeries gives them), e.g. the IOPS beside a MiB/s
// headline.
SeriesSummary HeadlineWindowSummary(const RunResult& run, Metric metric,
                                    const Headline& headline);

// The metric of a run's headline: DefaultAnalysisOptions(run).metric, the
// run's own (DefaultMetric) unless its campaign's [analysis] chose one.
Metric HeadlineMetric(const RunResult& run);

// RunHeadline by the defaults every command uses (DefaultAnalysisOptions).
Result<Headline> DefaultHeadline(const RunResult& run,
                                 const CancelToken& cancel = {});

// With the histograms in run.intervals; an analysis that fails (cancelled,
// or a warm-up that leaves no interval) is empty: for tests and callers
// that checked the window beforehand.
RunAnalysis AnalyzeRun(const RunResult& run, const AnalysisOptions& options);

}  // namespace flashmark
