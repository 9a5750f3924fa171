#include "analysis/run_analysis.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <vector>

#include "analysis/compare.h"
#include "common/random.h"

namespace flashmark {
namespace {

// A write run of `seconds` 1-s intervals whose MiB/s follows `level(t)`
// with 5 % noise; latency 200 us before `slow_after`, 400 us after.
template <typename Level>
RunResult SyntheticRun(int seconds, Level level, int slow_after,
                       uint64_t seed) {
  RunResult run;
  run.spec.mode = IoMode::kRndWr;
  Random random(seed);
  for (int t = 0; t < seconds; ++t) {
    IntervalSample sample;
    sample.index = t;
    sample.start_ns = t * 1'000'000'000ull;
    sample.end_ns = (t + 1) * 1'000'000'000ull;
    const double mibs = level(t) * (1 + 0.05 * (random.Unit() * 2 - 1));
    sample.write.ios = static_cast<uint64_t>(mibs * 256);  // 4 KiB IOs
    sample.write.bytes = sample.write.ios * 4096;
    sample.write_latency.Add(t < slow_after ? 200'000 : 400'000,
                             sample.write.ios);
    run.intervals.push_back(sample);
  }
  run.summary.write.ios = 1;
  return run;
}

TEST(AnalyzeRun, FindsAGcCliffAndSplitsLatencyByRegime) {
  const RunResult run = SyntheticRun(
      7200, [](int t) { return t < 4012 ? 380.0 : 301.0; }, 4012, 3);
  AnalysisOptions options;
  options.metric = DefaultMetric(run);
  options.warmup = WarmupMode::kNone;  // the analysed window: the whole run
  ASSERT_EQ(options.metric, Metric::kWriteMibs);
  const RunAnalysis a = AnalyzeRun(run, options);
  EXPECT_EQ(a.intervals, 7200u);
  ASSERT_EQ(a.regimes.changes.size(), 1u);
  EXPECT_NEAR(a.regimes.changes[0].time_seconds, 4012, 30);
  EXPECT_NEAR(a.regimes.changes[0].relative_change_percent, -20.8, 2);
  ASSERT_EQ(a.regime_latency.size(), 2u);
  EXPECT_NEAR(a.regime_latency[0].both.p99, 200'000, 200);
  EXPECT_NEAR(a.regime_latency[1].both.p99, 400'000, 400);
  // Over the whole window more intervals ran fast than slow.
  EXPECT_NEAR(a.latency.both.p50, 200'000, 200);
  EXPECT_EQ(a.p99_ns.size(), 7200u);
  EXPECT_NEAR(a.p99_ns.back(), 400'000, 400);
}

// A run whose sampler was stalled from 100 s to 103 s: one interval spans
// three, so interval i is no longer at i x 1 s. Times come from the
// intervals' measured instants: the warm-up cut, the regimes and the
// report's x axis land where they happened.
TEST(AnalyzeRun, TimesAreTheIntervalsMeasuredInstantsNotIndexTimesInterval) {
  RunResult run;
  run.spec.mode = IoMode::kRndWr;
  Random random(9);
  auto add = [&](uint64_t start_ms, uint64_t end_ms, uint32_t spans) {
    IntervalSample sample;
    sample.index = static_cast<uint32_t>(run.intervals.size());
    sample.start_ns = start_ms * 1'000'000;
    sample.end_ns = end_ms * 1'000'000;
    sample.spans = spans;
    const double mibs = (start_ms < 300'000 ? 380.0 : 300.0) *
                        (1 + 0.02 * (random.Unit() * 2 - 1)) *
                        (end_ms - start_ms) / 1000.0;
    sample.write.ios = static_cast<uint64_t>(mibs * 256);
    sample.write.bytes = sample.write.ios * 4096;
    sample.write_latency.Add(200'000, sample.write.ios);
    run.intervals.push_back(sample);
  };
  // Boundaries at k s, some a millisecond late (wake-up jitter), and
  // none at 101 and 102 s.
  std::vector<uint64_t> bounds_ms = {0};
  for (uint64_t k = 1; k <= 600; ++k) {
    if (k == 101 || k == 102) continue;
    bounds_ms.push_back(k * 1000 + (k % 7 == 3 ? 1 : 0));
  }
  for (size_t i = 0; i + 1 < bounds_ms.size(); ++i) {
    add(bounds_ms[i], bounds_ms[i + 1], bounds_ms[i] == 100'000 ? 3 : 1);
  }
  run.summary.write.ios = 1;

  AnalysisOptions options;
  options.warmup = WarmupMode::kFixed;
  options.warmup_seconds = 101;
  const RunAnalysis a = AnalyzeRun(run, options);
  ASSERT_EQ(a.start_times.size(), run.intervals.size());
  EXPECT_DOUBLE_EQ(a.start_times[100], 100);
  EXPECT_DOUBLE_EQ(a.times[100], 103);
  EXPECT_DOUBLE_EQ(a.start_times[101], 103);
  EXPECT_DOUBLE_EQ(a.start_times[3], 3.001) << "to the millisecond";
  EXPECT_EQ(run.intervals[100].spans, 3u);
  // The stall began before the warm-up's end: the window starts after it.
  EXPECT_EQ(a.first_index, 101u);
  ASSERT_EQ(a.regimes.changes.size(), 1u);
  EXPECT_DOUBLE_EQ(a.regimes.changes[0].time_seconds, 300)
      << "index " << a.regimes.changes[0].index << " is at 300 s, not 298 s";
  // Every interval's rate is over its own length: the stall reads 380 too.
  EXPECT_NEAR(a.values[100], 380, 380 * 0.03);
}

TEST(AnalyzeRun, FixedAndAutomaticWarmup) {
  auto decay = [](int t) { return 300 + 500 * std::exp(-t / 600.0); };
  const RunResult run = SyntheticRun(3 * 3600, decay, 1 << 30, 5);
  AnalysisOptions fixed;
  fixed.warmup = WarmupMode::kFixed;
  fixed.warmup_seconds = 1800;
  const RunAnalysis f = AnalyzeRun(run, fixed);
  EXPECT_EQ(f.first_index, 1800u);
  EXPECT_EQ(f.window.count, 3 * 3600u - 1800);
  // The window's middle is t = 6300 s, where the decay adds 500 e^-10.5.
  EXPECT_NEAR(f.window.median, 300 + 500 * std::exp(-10.5), 3);

  // Auto (issue 13, finding 1): the headline's window, which ends the
  // warm-up where the remaining decay is within the noise (+-5 % uniform,
  // sd 2.9 % = 8.7 MiB/s: 500 e^(-t/600) < 8.7 from t = 2430 s), not at
  // SNIA's first steady window (local: five flat-enough rounds).
  AnalysisOptions automatic;
  automatic.warmup = WarmupMode::kAuto;
  const RunAnalysis a = AnalyzeRun(run, automatic);
  ASSERT_TRUE(a.snia.reached);
  EXPECT_EQ(a.warmup_source, a.headline.warmup_reason);
  EXPECT_NE(a.warmup_source.find("MSER-5"), std::string::npos)
      << a.warmup_source;
  EXPECT_GT(a.warmup_end_seconds, a.snia.warmup_end_seconds);
  EXPECT_GT(a.warmup_end_seconds, 2000);
  EXPECT_EQ(a.first_index, a.headline.first_index);
  EXPECT_DOUBLE_EQ(a.window.median, a.headline.figure.median);
  EXPECT_NEAR(a.window.median, 300, 3);
  EXPECT_LE(a.window.median_ci.low, a.window.median);
  EXPECT_GE(a.window.median_ci.high, a.window.median);

  // Every command's figure comes from RunHeadline: the same as analyze's.
  auto headline = RunHeadline(run, automatic);
  ASSERT_TRUE(headline.ok()) << headline.error().message;
  EXPECT_EQ(headline->first_index, a.headline.first_index);
  EXPECT_DOUBLE_EQ(headline->figure.median, a.headline.figure.median);
  EXPECT_DOUBLE_EQ(headline->figure.median_ci.low,
                   a.headline.figure.median_ci.low);
  EXPECT_EQ(headline->warmup_reason, a.headline.warmup_reason);
}

// Issue 13, finding 5: a warm-up that leaves no interval is an error
// (exit 2), never a median of 0; so is a run without a full interval.
TEST(AnalyzeRun, WarmupPastTheEndIsAnErrorNotAZero) {
  const RunResult run = SyntheticRun(
      10, [](int) { return 300.0; }, 10, 1);
  AnalysisOptions options;
  options.warmup = WarmupMode::kFixed;
  options.warmup_seconds = 10;
  auto a = AnalyzeRun(run, options, InMemoryHistograms(run));
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().exit_code, 2);
  EXPECT_NE(a.error().message.find("leaves no interval"), std::string::npos)
      << a.error().message;
  auto h = RunHeadline(run, options);
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.error().exit_code, 2);
  options.warmup_seconds = 9;  // the last interval starts at 9 s
  auto one = AnalyzeRun(run, options, InMemoryHistograms(run));
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->window.count, 1u);

  const RunResult none;
  auto empty = AnalyzeRun(none, AnalysisOptions(), InMemoryHistograms(none));
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().exit_code, 2);
  EXPECT_NE(empty.error().message.find("no full interval"), std::string::npos);
}

TEST(AnalyzeRun, LatencyMetricAndAnEmptyRun) {
  const RunResult run = SyntheticRun(
      600, [](int) { return 100.0; }, 300, 1);
  AnalysisOptions options;
  options.metric = Metric::kLatencyP99;
  const RunAnalysis a = AnalyzeRun(run, options);
  EXPECT_NEAR(a.values.front(), 200'000, 200);
  EXPECT_NEAR(a.values.back(), 400'000, 400);
  ASSERT_EQ(a.regimes.changes.size(), 1u);
  EXPECT_NEAR(a.regimes.changes[0].time_seconds, 300, 5);

  const RunAnalysis empty = AnalyzeRun(RunResult(), AnalysisOptions());
  EXPECT_EQ(empty.intervals, 0u);
  EXPECT_EQ(empty.window.count, 0u);
}

// A tool that printed a percentile per interval (sysbench's p95, in ms)
// gives that metric, and only that one, where no histogram was recorded.
TEST(AnalyzeRun, AToolsOwnPercentileIsItsMetricWithoutHistograms) {
  RunResult run;
  run.spec.mode = IoMode::kRndRd;
  run.summary.read.ios = 1;
  run.imported.tool = "sysbench";
  ToolSeries p95{"latency p95", "ms", {}};
  for (int t = 0; t < 40; ++t) {
    IntervalSample sample;
    sample.start_ns = t * 1'000'000'000ull;
    sample.end_ns = (t + 1) * 1'000'000'000ull;
    sample.read.ios = 1000;
    sample.read.bytes = 1000 * 4096;
    run.intervals.push_back(sample);
    p95.values.push_back(t < 20 ? 0.5 : 2.0);  // ms
  }
  run.imported.series.push_back(p95);
  EXPECT_TRUE(ToolLatencySeries(run, Metric::kLatencyP99).empty());
  ASSERT_EQ(ToolLatencySeries(run, Metric::kLatencyP95).size(), 40u);
  EXPECT_DOUBLE_EQ(ToolLatencySeries(run, Metric::kLatencyP95)[0], 500'000);
  EXPECT_DOUBLE_EQ(MetricSeries(run, Metric::kLatencyP95).back(), 2'000'000);
  EXPECT_EQ(ToolLatencyMetricName(run), "p95");

  AnalysisOptions options = DefaultAnalysisOptions(run);
  options.metric = Metric::kLatencyP95;
  options.warmup = WarmupMode::kNone;
  auto analysis = AnalyzeRun(run, options, InMemoryHistograms(run));
  ASSERT_TRUE(analysis.ok()) << analysis.error().message;
  EXPECT_EQ(analysis->values.size(), 40u);
  EXPECT_DOUBLE_EQ(analysis->p95_ns.front(), 500'000);
  EXPECT_TRUE(std::isnan(analysis->p99_ns.front()));  // none invented
  // A histogram, where an interval has one, is the measurement.
  run.intervals[0].read_latency.Add(100'000, 1000);
  EXPECT_NEAR(MetricSeries(run, Metric::kLatencyP95).front(), 100'000, 1000);

  options.metric = Metric::kLatencyP99;
  run.intervals[0].read_latency = LatencyHistogram();
  auto refused = AnalyzeRun(run, options, InMemoryHistograms(run));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().hint,
            "sysbench printed its p95 per interval: use --metric p95");
}

// Issue 11, finding 14: an analysis stops when asked (SIGINT in the app)
// and says so with exit status 130.
TEST(AnalyzeRun, CancelledAnalysisIsAnInterruption) {
  const RunResult run = SyntheticRun(
      3600, [](int t) { return t < 2000 ? 380.0 : 301.0; }, 2000, 4);
  std::atomic<bool> stop{true};
  AnalysisOptions options;
  options.cancel = CancelToken(&stop);
  auto cancelled = AnalyzeRun(run, options, InMemoryHistograms(run));
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error().exit_code, 130);
  EXPECT_EQ(AnalyzeRun(run, options).intervals, 0u);  // empty, no throw
  stop = false;
  auto whole = AnalyzeRun(run, options, InMemoryHistograms(run));
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->regimes.changes.size(), 1u);
}

// The bootstrap stops drawing once cancelled.
TEST(AnalyzeRun, CancelledBootstrapDrawsNothing) {
  std::vector<double> values(1000);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<double>(i % 97);
  std::atomic<bool> stop{true};
  BootstrapOptions options;
  options.cancel = CancelToken(&stop);
  const ConfidenceInterval ci = MedianConfidenceInterval(values, options);
  // No resample drawn: the statistics are the zeros they started as.
  EXPECT_EQ(ci.low, 0);
  EXPECT_EQ(ci.high, 0);
}

TEST(CompareUnits, RatioOfTwoDevicesWithCostFigures) {
  const RunResult single = SyntheticRun(
      1200, [](int) { return 300.0; }, 1 << 30, 7);
  const RunResult duo = SyntheticRun(
      1200, [](int) { return 591.0; }, 1 << 30, 8);
  std::vector<ComparisonUnit> units(2);
  units[0].name = "single";
  units[1].name = "duo";
  for (int u = 0; u < 2; ++u) {
    const RunResult& run = u == 0 ? single : duo;
    units[u].mibs = MetricSeries(run, Metric::kWriteMibs);
    units[u].iops = MetricSeries(run, Metric::kIops);
    units[u].p99_ns = MetricSeries(run, Metric::kLatencyP99);
  }
  units[1].price = Price{5000, ""};
  units[1].capacity_bytes = 1e12;
  const Comparison c = CompareUnits(units);
  ASSERT_EQ(c.metrics.size(), 3u);
  const ConfidenceInterval& ratio = c.metrics[0].ratios[1];
  EXPECT_NEAR(ratio.estimate, 1.97, 0.02);
  EXPECT_LT(ratio.low, ratio.estimate);
  EXPECT_GT(ratio.high, ratio.estimate);
  EXPECT_GT(ratio.low, 1.9);
  EXPECT_FALSE(c.metrics[0].within_noise[1]);
  EXPECT_TRUE(c.metrics[2].within_noise[1]) << "same latency";
  EXPECT_TRUE(c.metrics[0].within_noise[0]) << "the baseline against itself";
  EXPECT_DOUBLE_EQ(*c.costs[1].per_gb, 5.0);
  EXPECT_NEAR(*c.costs[1].per_mibs, 5000 / 591.0, 0.2);
  EXPECT_FALSE(c.costs[0].per_mibs.has_value());
}

// One verdict from one rule: a difference is clear exactly where the
// ratio's CI leaves out 1. Noisy series whose medians' CIs overlap can
// still differ clearly (the case that printed "ran 1.12 x (1.01..1.30)"
// and then "that difference may be noise").
TEST(CompareUnits, NoClearDifferenceIsTheRatioCiIncludingOne) {
  int overlapping_yet_clear = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Random random(seed);
    std::vector<ComparisonUnit> units(2);
    for (int i = 0; i < 60; ++i) {
      units[0].mibs.push_back(100 * (0.6 + 0.8 * random.Unit()));
      units[1].mibs.push_back(112 * (0.6 + 0.8 * random.Unit()));
    }
    units[0].iops = units[0].mibs;
    units[1].iops = units[1].mibs;
    const Comparison c = CompareUnits(units);
    const MetricComparison& m = c.metrics[0];
    const ConfidenceInterval& ratio = m.ratios[1];
    EXPECT_EQ(m.within_noise[1], ratio.low <= 1 && 1 <= ratio.high) << seed;
    const bool medians_overlap = m.medians[1].low <= m.medians[0].high &&
                                 m.medians[0].low <= m.medians[1].high;
    if (medians_overlap && !m.within_noise[1]) ++overlapping_yet_clear;
  }
  EXPECT_GT(overlapping_yet_clear, 0);
}

}  // namespace
}  // namespace flashmark
