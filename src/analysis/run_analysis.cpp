#include "analysis/run_analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "analysis/analysis_settings.h"
#include "analysis/quantiles.h"
#include "analysis/run_summary.h"

namespace flashmark {
namespace {

RegimeLatency Summaries(const LatencyAccumulator& read,
                        const LatencyAccumulator& write) {
  const LatencyHistogram r = read.Result();
  const LatencyHistogram w = write.Result();
  LatencyHistogram both = r;
  both.Merge(w);
  return {SummarizeLatency(r), SummarizeLatency(w), SummarizeLatency(both)};
}

// Nanoseconds since the run started, as seconds to the millisecond.
double RunSeconds(uint64_t ns) { return std::round(ns / 1e6) / 1e3; }

// The measured start and end of each interval run.intervals[indexes[k]]
// (never k x interval: one may be a stall that spans several), to the
// millisecond; and the series' bounds (IntervalSeries): the starts, then
// the last end.
void MeasuredTimes(const RunResult& run, const std::vector<size_t>& indexes,
                   std::vector<double>& start_times, std::vector<double>& times,
                   std::vector<double>& bounds) {
  for (size_t index : indexes) {
    start_times.push_back(RunSeconds(run.intervals[index].start_ns));
    times.push_back(RunSeconds(run.intervals[index].end_ns));
  }
  bounds = start_times;
  if (!times.empty()) bounds.push_back(times.back());
}

bool IsLatencyMetric(Metric metric) {
  return metric == Metric::kLatencyP50 || metric == Metric::kLatencyP95 ||
         metric == Metric::kLatencyP99 || metric == Metric::kLatencyP999;
}

Error NoFullInterval() {
  return UsageError("the run has no full interval to analyse",
                    "it ended within its first interval: run it longer, or "
                    "with a shorter --interval");
}

}  // namespace

size_t IntervalsIn(double seconds, double interval) {
  constexpr double kMax = 1e15;
  const double count = interval > 0 ? std::round(seconds / interval) : kMax;
  return static_cast<size_t>(std::clamp(count, 0.0, kMax));
}

AnalysisOptions DefaultAnalysisOptions(const JobSpec& spec, Metric metric) {
  AnalysisOptions options;
  options.metric = metric;
  options.warmup = WarmupMode::kAuto;
  options.snia.round_seconds = spec.steady_round.count() / 1e9;
  options.regimes.min_segment_intervals =
      std::max<size_t>(2, IntervalsIn(60.0, spec.interval.count() / 1e9));
  return options;
}

AnalysisOptions DefaultAnalysisOptions(const RunResult& run) {
  AnalysisOptions options =
      DefaultAnalysisOptions(run.spec, DefaultMetric(run));
  // Checked when the campaign loaded; a stored choice this build cannot
  // read leaves the defaults.
  AnalysisOptions campaign = options;
  if (ApplyAnalysisSettings(run.spec.analysis, run.spec.interval.count() / 1e9,
                            SettingsSource::kCampaign, campaign)
          .ok()) {
    options = campaign;
  }
  return options;
}

HeadlineOptions ToHeadlineOptions(const AnalysisOptions& options) {
  HeadlineOptions headline;
  headline.warmup = options.warmup;
  headline.warmup_seconds = options.warmup_seconds;
  headline.snia = options.snia;
  headline.regimes = options.regimes;
  headline.bootstrap = options.bootstrap;
  headline.cancel = options.cancel;
  return headline;
}

Result<Headline> RunHeadline(const RunResult& run,
                             const AnalysisOptions& options) {
  if (IsLatencyMetric(options.metric)) {
    return UsageError(
        fmt::format("--metric {}: a run's headline is a throughput or IOPS "
                    "figure",
                    DescribeMetric(options.metric).name),
        "analyse latency with `flashmark analyze RUN --metric p99`");
  }
  std::vector<size_t> indexes;
  const std::vector<double> values =
      MetricSeries(run, options.metric, &indexes);
  if (values.empty()) return NoFullInterval();
  std::vector<double> start_times, times, bounds;
  MeasuredTimes(run, indexes, start_times, times, bounds);
  const IntervalSeries series{values, run.spec.interval.count() / 1e9, 0.0,
                              bounds};
  return FindHeadline(series, ToHeadlineOptions(options));
}

Metric HeadlineMetric(const RunResult& run) {
  return DefaultAnalysisOptions(run).metric;
}

Result<Headline> DefaultHeadline(const RunResult& run,
                                 const CancelToken& cancel) {
  AnalysisOptions options = DefaultAnalysisOptions(run);
  options.cancel = cancel;
  return RunHeadline(run, options);
}

SeriesSummary HeadlineWindowSummary(const RunResult& run, Metric metric,
                                    const Headline& headline) {
  std::vector<double> values = MetricSeries(run, metric);
  const size_t end = std::min(headline.end_index, values.size());
  const size_t first = std::min(headline.first_index, end);
  return SummarizeSeries(
      std::vector<double>(values.begin() + first, values.begin() + end));
}

HistogramScan InMemoryHistograms(const RunResult& run) {
  return [&run](const HistogramVisitor& visit) -> Status {
    for (size_t i = 0; i < run.intervals.size(); ++i) {
      visit(i, run.intervals[i].read_latency, run.intervals[i].write_latency);
    }
    return OkStatus();
  };
}

RunAnalysis AnalyzeRun(const RunResult& run, const AnalysisOptions& options) {
  auto analysis = AnalyzeRun(run, options, InMemoryHistograms(run));
  // The in-memory scan cannot fail: only a cancelled analysis, or one
  // that leaves no interval to analyse, does.
  return analysis.ok() ? std::move(analysis).value() : RunAnalysis();
}

Result<RunAnalysis> AnalyzeRun(const RunResult& run,
                               const AnalysisOptions& options,
                               const HistogramScan& scan) {
  RunAnalysis analysis;
  analysis.metric = options.metric;
  analysis.interval_seconds = run.spec.interval.count() / 1e9;
  std::vector<size_t> indexes;
  analysis.values = MetricSeries(run, options.metric, &indexes);
  analysis.intervals = analysis.values.size();
  // Per-interval percentiles come from the histograms. A latency metric
  // needs them before anything else (one extra pass); otherwise they are
  // taken in the single pass that also merges the window and regimes.
  // NaN where an interval has no histogram (imported from sysbench, say):
  // no percentile is invented.
  // Where an imported tool printed a percentile per interval (sysbench's
  // p95), that column holds its figures; histograms, where there are any,
  // take their place.
  std::vector<std::array<double, 4>> percentiles(
      run.intervals.size(),
      {std::nan(""), std::nan(""), std::nan(""), std::nan("")});
  for (int column = 0; column < 4; ++column) {
    constexpr std::array<Metric, 4> kColumns{
        Metric::kLatencyP50, Metric::kLatencyP95, Metric::kLatencyP99,
        Metric::kLatencyP999};
    const std::vector<double> tool = ToolLatencySeries(run, kColumns[column]);
    for (size_t i = 0; i < tool.size(); ++i) percentiles[i][column] = tool[i];
  }
  auto take_percentiles = [&percentiles](size_t i, const LatencyHistogram& read,
                                         const LatencyHistogram& write) {
    if (i >= percentiles.size() || (read.empty() && write.empty())) return;
    const LatencyHistogram* both = &write;
    LatencyHistogram merged;
    if (!read.empty()) {
      merged = read;
      merged.Merge(write);
      both = &merged;
    }
    percentiles[i] = {both->Quantile(0.5), both->Quantile(0.95),
                      both->Quantile(0.99), both->Quantile(0.999)};
  };
  const int latency_column = options.metric == Metric::kLatencyP50    ? 0
                             : options.metric == Metric::kLatencyP95  ? 1
                             : options.metric == Metric::kLatencyP99  ? 2
                             : options.metric == Metric::kLatencyP999 ? 3
                                                                      : -1;
  if (latency_column >= 0) {
    if (Status scanned = scan(take_percentiles); !scanned.ok()) {
      if (options.cancel.cancelled()) return InterruptedError();
      return scanned.error();
    }
    std::vector<size_t> kept;
    analysis.values.clear();
    for (size_t index : indexes) {
      const double value = percentiles[index][latency_column];
      if (std::isnan(value)) continue;
      analysis.values.push_back(value);
      kept.push_back(index);
    }
    if (analysis.values.empty() && !indexes.empty()) {
      const std::string printed = ToolLatencyMetricName(run);
      return UsageError(
          fmt::format("--metric {}: the run has no latency histograms",
                      DescribeMetric(options.metric).name),
          run.imported.empty()
              ? std::string("analyse its throughput or IOPS instead")
          : printed.empty()
              ? fmt::format("{} printed its own latency figures: `flashmark "
                            "show` lists them",
                            run.imported.tool)
              : fmt::format("{} printed its {} per interval: use --metric {}",
                            run.imported.tool, printed, printed));
    }
    indexes = std::move(kept);
    analysis.intervals = analysis.values.size();
  }
  if (analysis.values.empty()) return NoFullInterval();
  std::vector<double> bounds;
  MeasuredTimes(run, indexes, analysis.start_times, analysis.times, bounds);
  if (options.cancel.cancelled()) return InterruptedError();
  const IntervalSeries series{analysis.values, analysis.interval_seconds, 0.0,
                              bounds};

  if (run.spec.detect_throttle) {
    auto throttle = FindRunThrottle(run, options.cancel);
    if (!throttle.ok() && IsInterruption(throttle.error())) {
      return InterruptedError();
    }
    analysis.throttle =
        throttle.ok() ? std::move(*throttle) : ThrottleFinding{};
    analysis.throttle_error = throttle.ok() ? "" : throttle.error().message;
  }
  analysis.snia = FindSniaSteadyState(series, options.snia);
  analysis.mser = FindMserTruncation(series);
  analysis.fio_deviation =
      FindFioSteadyState(series, {FioCriterion::kMaxDeviation});
  analysis.fio_slope = FindFioSteadyState(series, {FioCriterion::kSlope, 10.0});

  auto headline = FindHeadline(series, ToHeadlineOptions(options));
  if (!headline.ok()) return headline.error();
  analysis.headline = std::move(headline).value();
  const Headline& h = analysis.headline;

  analysis.warmup_mode = options.warmup;
  analysis.warmup_end_seconds = h.warmup_end_seconds;
  analysis.warmup_source = h.warmup_reason;
  // auto: the headline's window; none and fixed: every interval that
  // starts at or after the cut (the headline's figure is over the final
  // regime inside it).
  analysis.first_index = options.warmup == WarmupMode::kAuto
                             ? h.first_index
                             : h.regimes_first_index;
  const std::span<const double> window =
      std::span<const double>(analysis.values).subspan(analysis.first_index);
  if (options.warmup == WarmupMode::kAuto) {
    analysis.window = h.figure;
  } else {
    BootstrapOptions bootstrap = options.bootstrap;
    bootstrap.cancel = options.cancel;
    analysis.window = ComputeWindowStats(window, bootstrap);
  }
  if (options.cancel.cancelled()) return InterruptedError();
  analysis.regime_options = options.regimes;
  analysis.regime_options.cancel = options.cancel;
  analysis.regimes = h.regimes;
  analysis.regimes_first_index = h.regimes_first_index;

  // Pass 2: merged histograms over the window and over each regime.
  // Which regime (if any) each interval of the run belongs to, and
  // whether it lies in the analysed window.
  std::vector<int> regime_of(run.intervals.size(), -1);
  std::vector<char> in_window(run.intervals.size(), 0);
  for (size_t k = analysis.first_index; k < indexes.size(); ++k) {
    in_window[indexes[k]] = 1;
  }
  for (size_t r = 0; r < analysis.regimes.segments.size(); ++r) {
    const Regime& regime = analysis.regimes.segments[r];
    for (size_t k = regime.first_index; k <= regime.last_index; ++k) {
      const size_t position = analysis.regimes_first_index + k;
      if (position < indexes.size())
        regime_of[indexes[position]] = static_cast<int>(r);
    }
  }
  const size_t regimes = analysis.regimes.segments.size();
  std::vector<LatencyAccumulator> reads(regimes), writes(regimes);
  LatencyAccumulator window_reads, window_writes;
  std::vector<char> in_series(run.intervals.size(), 0);
  for (size_t index : indexes) in_series[index] = 1;
  LatencyHeatmapBuilder heatmap;
  Status scanned = scan([&](size_t i, const LatencyHistogram& read,
                            const LatencyHistogram& write) {
    if (latency_column < 0) take_percentiles(i, read, write);
    if (options.heatmap_columns > 0 && i < in_series.size() && in_series[i]) {
      LatencyHistogram both = read;
      both.Merge(write);
      heatmap.Add(run.intervals[i].start_ns / 1e9,
                  run.intervals[i].end_ns / 1e9, both);
    }
    if (i >= regime_of.size()) return;
    if (in_window[i]) {
      window_reads.Add(read);
      window_writes.Add(write);
    }
    if (regime_of[i] >= 0) {
      reads[regime_of[i]].Add(read);
      writes[regime_of[i]].Add(write);
    }
  });
  if (options.cancel.cancelled()) return InterruptedError();
  if (!scanned.ok()) return scanned.error();
  for (size_t index : indexes) {
    analysis.p50_ns.push_back(percentiles[index][0]);
    analysis.p95_ns.push_back(percentiles[index][1]);
    analysis.p99_ns.push_back(percentiles[index][2]);
    analysis.p999_ns.push_back(percentiles[index][3]);
  }
  if (options.heatmap_columns > 0) {
    analysis.heatmap = heatmap.Result(options.heatmap_columns);
  }
  for (size_t r = 0; r < regimes; ++r) {
    analysis.regime_latency.push_back(Summaries(reads[r], writes[r]));
  }
  analysis.latency = Summaries(window_reads, window_writes);
  analysis.window_histogram = window_reads.Result();
  analysis.window_histogram.Merge(window_writes.Result());
  return analysis;
}

}  // namespace flashmark
