#include "report/report_data.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/random.h"
#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/svg_chart.h"

namespace flashmark {
namespace {

using nlohmann::json;

ReportRun MakeRun(int64_t id, int threads, double mibs, Tags tags,
                  std::string label = "") {
  ReportRun run;
  run.stored.id = id;
  run.stored.labels.label = std::move(label);
  run.stored.labels.tags = std::move(tags);
  run.stored.run.spec.mode = IoMode::kRndWr;
  run.stored.run.spec.threads = threads;
  Random random(id);
  for (uint32_t t = 0; t < 600; ++t) {
    IntervalSample sample;
    sample.index = t;
    sample.start_ns = t * 1'000'000'000ull;
    sample.end_ns = (t + 1) * 1'000'000'000ull;
    sample.write.ios =
        static_cast<uint64_t>(mibs * 256 * (0.95 + 0.1 * random.Unit()));
    sample.write.bytes = sample.write.ios * 4096;
    sample.write_latency.Add(100'000 * threads, sample.write.ios);
    run.stored.run.intervals.push_back(sample);
  }
  run.stored.run.summary.write.ios = 1;
  AnalysisOptions options;
  options.metric = Metric::kWriteMibs;
  options.warmup = WarmupMode::kNone;  // every interval counts: figures by hand
  run.analysis = AnalyzeRun(run.stored.run, options);
  return run;
}

std::vector<std::string> Charts(const json& data) {
  return data["charts"].get<std::vector<std::string>>();
}

TEST(ReportData, LatencyOverTimeHeatmapSpectrumAndDeviceSeries) {
  ReportRun run = MakeRun(1, 1, 300, {});
  uint64_t slow_ios = 0;
  for (size_t k = 0; k < run.stored.run.intervals.size(); ++k) {
    IntervalSample& sample = run.stored.run.intervals[k];
    // A slow tail: 2 % of the IOs at 2 ms.
    sample.write_latency.Add(2'000'000, sample.write.ios / 50);
    slow_ios += sample.write.ios / 50;
    DiskActivity disk;
    disk.device = "loop9";
    disk.busy_ms = k < 300 ? 250 : 750;
    disk.queue_ms = 4000;
    sample.telemetry.disks.push_back(disk);
  }
  AnalysisOptions options;
  options.metric = Metric::kWriteMibs;
  options.warmup = WarmupMode::kNone;
  options.heatmap_columns = 100;
  run.analysis = AnalyzeRun(run.stored.run, options);
  ReportInput input;
  input.runs.push_back(std::move(run));
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok()) << data.error().message;
  const auto charts = Charts(*data);
  EXPECT_NE(std::find(charts.begin(), charts.end(), "device_activity"),
            charts.end());
  const json& r = (*data)["runs"][0];
  EXPECT_EQ(r["series"]["p50_ms"].size(), r["series"]["t"].size());
  EXPECT_NEAR(r["series"]["p50_ms"][0].get<double>(), 0.1, 0.001);
  EXPECT_NEAR(r["series"]["p999_ms"][0].get<double>(), 2, 0.01);
  EXPECT_NEAR(r["series"]["device_busy_percent"][0].get<double>(), 25, 1e-9);
  EXPECT_NEAR(r["series"]["device_busy_percent"][599].get<double>(), 75, 1e-9);
  EXPECT_NEAR(r["series"]["device_queue"][0].get<double>(), 4, 1e-9);
  EXPECT_EQ(r["series"]["device"], "loop9");
  // 600 intervals in 100 columns of 6; two bands hold every IO.
  const json& h = r["latency_heatmap"];
  ASSERT_TRUE(h.is_object());
  EXPECT_EQ(h["start"].size(), 100u);
  EXPECT_DOUBLE_EQ(h["start"][1].get<double>(), 6);
  EXPECT_DOUBLE_EQ(h["end"][0].get<double>(), 6);
  uint64_t slow = 0, total = 0;
  for (const json& cell : h["cells"]) {
    const double low = h["row_low_ms"][cell[1].get<size_t>()].get<double>();
    total += cell[2].get<uint64_t>();
    if (low > 1) slow += cell[2].get<uint64_t>();
  }
  EXPECT_EQ(slow, slow_ios);
  EXPECT_GT(total, slow);
  // The spectrum ends at the slowest IO and marks the thin tail.
  const json& points = r["latency_spectrum"]["points"];
  ASSERT_GT(points.size(), 10u);
  EXPECT_NEAR(points[0]["percentile"].get<double>(), 50, 1e-9);
  EXPECT_NEAR(points.back()["ms"].get<double>(), 2, 0.01);
  EXPECT_TRUE(points.back()["few"].get<bool>());
  EXPECT_FALSE(points[0]["few"].get<bool>());
}

TEST(ReportData, OneRunGetsTimeSeriesIopsAndLatencyDistribution) {
  ReportInput input;
  input.runs.push_back(MakeRun(1, 1, 300, {}));
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok()) << data.error().message;
  EXPECT_EQ(Charts(*data),
            (std::vector<std::string>{
                "timeseries", "latency_bands", "latency_heatmap",
                "iops_latency", "latency_distribution", "latency_spectrum"}));
  const json& run = (*data)["runs"][0];
  EXPECT_EQ(run["name"], "run 1");
  EXPECT_NEAR(run["summary"]["median"].get<double>(), 300, 10);
  EXPECT_EQ(run["series"]["t"].size(), 600u) << "600 points need no thinning";
  // Each point at its interval's end, as the console prints: 0..1 s at 1 s.
  EXPECT_DOUBLE_EQ(run["series"]["t"][0].get<double>(), 1);
  EXPECT_DOUBLE_EQ(run["series"]["t"][599].get<double>(), 600);
  EXPECT_EQ(run["steady_state"]["warmup_mode"], "none");
  EXPECT_FALSE(run["series"]["downsampled"].get<bool>());
  EXPECT_DOUBLE_EQ(run["latency_cdf"]["fraction"].back().get<double>(), 1.0);
  EXPECT_TRUE((*data)["groups"].is_null());
}

// A run that drops from 300 to 200 MiB/s at 300 s, analysed with a fixed
// 30 s warm-up: the Markdown time series shades the warm-up and the earlier
// regime after it, named so, and draws the headline median over the final
// regime only.
TEST(ReportData, MarkdownTimeSeriesShowsWhatTheHeadlineLeavesOut) {
  ReportRun run = MakeRun(1, 1, 300, {});
  for (size_t k = 300; k < run.stored.run.intervals.size(); ++k) {
    IntervalSample& sample = run.stored.run.intervals[k];
    sample.write.ios = sample.write.ios * 2 / 3;
    sample.write.bytes = sample.write.ios * 4096;
  }
  AnalysisOptions options;
  options.metric = Metric::kWriteMibs;
  options.warmup = WarmupMode::kFixed;
  options.warmup_seconds = 30;
  run.analysis = AnalyzeRun(run.stored.run, options);
  ReportInput input;
  input.runs.push_back(std::move(run));
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok()) << data.error().message;
  const json& r = (*data)["runs"][0];
  EXPECT_EQ(r["steady_state"]["warmup_mode"], "fixed");
  ASSERT_NEAR(r["headline"]["start_seconds"].get<double>(), 300, 5);
  std::string svg;
  for (const PendingFile& file : MarkdownReportFiles(*data, "/tmp/r/r.md")) {
    if (file.path.ends_with("-timeseries.svg")) svg = file.text;
  }
  ASSERT_FALSE(svg.empty());
  EXPECT_NE(svg.find(">warm-up, earlier regime</text>"), std::string::npos);
  // The dashed median starts half way (x = 70 + 300/600 of the 640 px plot).
  const size_t dash = svg.find("stroke-dasharray=\"8 4\"");
  ASSERT_NE(dash, std::string::npos);
  const size_t line = svg.rfind("<line x1=\"", dash);
  const double x1 = std::stod(svg.substr(line + 10));
  EXPECT_NEAR(x1, 70 + 640 * 0.5, 12);
}

TEST(ReportData, ATracedRunGetsWhereTheTimeWentPerInterval) {
  ReportRun run = MakeRun(1, 1, 300, {});
  for (size_t k = 0; k < run.stored.run.intervals.size(); ++k) {
    run.split_p50_ns.push_back({1'000, 2'000, 90'000.0 + k, 7'000});
  }
  run.split_p50_ns[5][1] = std::nan("");  // no IO traced in interval 5
  ReportInput input;
  input.runs.push_back(std::move(run));
  input.runs.push_back(MakeRun(2, 1, 300, {}));  // not traced
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok()) << data.error().message;
  const auto charts = Charts(*data);
  EXPECT_NE(std::find(charts.begin(), charts.end(), "latency_split"),
            charts.end());
  const json& series = (*data)["runs"][0]["series"];
  ASSERT_EQ(series["split_p50_ms"].size(), series["t"].size());
  EXPECT_EQ(series["split_p50_ms"][0], (json{0.001, 0.002, 0.09, 0.007}));
  EXPECT_NEAR(series["split_p50_ms"][599][2].get<double>(), 0.090599, 1e-9);
  EXPECT_TRUE(series["split_p50_ms"][5][1].is_null());
  EXPECT_TRUE((*data)["runs"][1]["series"]["split_p50_ms"].is_null());
}

TEST(ReportData, ThreadSweepGetsBoxLatencyAndMedianCharts) {
  ReportInput input;
  input.by = "threads";
  input.runs.push_back(MakeRun(1, 4, 400, {{"threads", "4"}}));
  input.runs.push_back(MakeRun(2, 1, 100, {{"threads", "1"}}));
  input.runs.push_back(MakeRun(3, 2, 200, {{"threads", "2"}}));
  input.max_points = 100;
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok()) << data.error().message;
  const auto charts = Charts(*data);
  for (const char* chart : {"box", "latency_vs_param", "median_vs_param"}) {
    EXPECT_NE(std::find(charts.begin(), charts.end(), chart), charts.end())
        << chart;
  }
  EXPECT_EQ(std::find(charts.begin(), charts.end(), "comparison"),
            charts.end());
  const json& items = (*data)["groups"]["items"];
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0]["name"], "1") << "numeric groups are sorted by value";
  EXPECT_EQ(items[2]["value"], 4.0);
  EXPECT_NEAR(items[1]["box"]["median"].get<double>(), 200, 8);
  EXPECT_LE(items[1]["box"]["q1"].get<double>(),
            items[1]["box"]["median"].get<double>());
  EXPECT_NEAR(items[2]["p99_ms"].get<double>(), 0.4, 0.001);
  // Drawing data is thinned; statistics are not.
  EXPECT_TRUE((*data)["runs"][0]["series"]["downsampled"].get<bool>());
  EXPECT_LE((*data)["runs"][0]["series"]["t"].size(), 200u);
  EXPECT_EQ((*data)["runs"][0]["summary"]["intervals"], 600);
}

TEST(ReportData, SweepIsFoundWithoutTagsWhenOneParameterDiffers) {
  ReportInput input;
  input.runs.push_back(MakeRun(1, 1, 100, {}));
  input.runs.push_back(MakeRun(2, 8, 500, {}));
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ((*data)["groups"]["by"], "threads");
}

TEST(ReportData, DevicesGetComparisonWithRatiosAndCosts) {
  ReportInput input;
  input.by = "device";
  input.runs.push_back(
      MakeRun(1, 1, 300, {{"device", "single"}, {"price", "100"}}));
  input.runs.push_back(MakeRun(
      2, 1, 591, {{"device", "duo"}, {"price", "180"}, {"capacity", "200G"}}));
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok()) << data.error().message;
  const auto charts = Charts(*data);
  EXPECT_NE(std::find(charts.begin(), charts.end(), "comparison"),
            charts.end());
  const json& c = (*data)["comparison"];
  EXPECT_EQ(c["baseline"], "single");
  EXPECT_NEAR(c["items"][1]["ratio"].get<double>(), 1.97, 0.03);
  EXPECT_LT(c["items"][1]["ratio_low"].get<double>(),
            c["items"][1]["ratio"].get<double>());
  EXPECT_TRUE(c["items"][0]["price_per_gb"].is_null()) << "no capacity known";
  // 200G as a vendor writes it: 200 * 10^9 bytes.
  EXPECT_NEAR(c["items"][1]["price_per_gb"].get<double>(), 0.9, 1e-9);
}

// Like with like: a group pools repeats of one workload. Sync and async
// cells of a sweep grouped by device were drawn as one box with a ratio.
TEST(ReportData, AGroupOfRunsThatDifferInTheWorkloadIsRefused) {
  ReportInput input;
  input.by = "device";
  input.runs.push_back(MakeRun(1, 1, 300, {{"device", "a"}}));
  input.runs.push_back(MakeRun(2, 1, 600, {{"device", "a"}}));
  input.runs.push_back(MakeRun(3, 1, 300, {{"device", "b"}}));
  input.runs[1].stored.run.spec.engine = "io_uring";  // psync the others'
  auto data = BuildReportData(input);
  ASSERT_FALSE(data.ok());
  EXPECT_EQ(data.error().exit_code, kUsageExit);
  EXPECT_EQ(data.error().message,
            "runs 1 and 2 fall in one group (device a) but differ in engine "
            "(psync, io_uring): a group pools one workload's repeats");
  EXPECT_NE(data.error().hint.find("--where engine=psync"), std::string::npos);
  // Grouped by what differs, each group is one workload again.
  input.by = "engine";
  input.runs.pop_back();
  EXPECT_TRUE(BuildReportData(input).ok());
  // Repeats of one workload pool, whatever their target's path.
  input.by = "device";
  input.runs[1].stored.run.spec.engine = input.runs[0].stored.run.spec.engine;
  input.runs[1].stored.run.spec.targets = {"/dev/loop7"};
  EXPECT_TRUE(BuildReportData(input).ok());
}

TEST(ReportData, BadPriceTagIsAUsageErrorAsInCompare) {
  // Was read with an unchecked strtod: "cheap" became a price of 0.
  ReportInput input;
  input.by = "device";
  input.runs.push_back(
      MakeRun(1, 1, 300, {{"device", "a"}, {"price", "cheap"}}));
  input.runs.push_back(MakeRun(2, 1, 600, {{"device", "b"}, {"price", "180"}}));
  auto data = BuildReportData(input);
  ASSERT_FALSE(data.ok());
  EXPECT_EQ(data.error().exit_code, kUsageExit);
  EXPECT_EQ(data.error().message, "run 1: price tag \"cheap\" is not a price");
}

TEST(ReportData, PlainRunsAreComparedWithTheirPricesAsInCompare) {
  ReportInput input;
  input.runs.push_back(MakeRun(1, 1, 300, {{"price", "100"}}, "a"));
  input.runs.push_back(MakeRun(2, 1, 600, {{"price", "150"}}, "b"));
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok()) << data.error().message;
  const json& items = (*data)["comparison"]["items"];
  ASSERT_EQ(items.size(), 2u);
  EXPECT_NEAR(items[0]["price_per_mibs"].get<double>(), 100.0 / 300, 0.02);
  EXPECT_NEAR(items[1]["price_per_mibs"].get<double>(), 150.0 / 600, 0.01);
}

TEST(ReportData, MissingTagAndEmptyRunAreUsageErrors) {
  ReportInput input;
  input.by = "device";
  input.runs.push_back(MakeRun(1, 1, 300, {}));
  auto missing = BuildReportData(input);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().exit_code, kUsageExit);
  ReportInput empty;
  empty.runs.push_back(ReportRun{});
  EXPECT_FALSE(BuildReportData(empty).ok());
}

TEST(ReportEscaping, ScriptJsonAndSvgCannotCarryMarkup) {
  const std::string evil = "</script><img src=x onerror=alert(1)>";
  const std::string safe = ScriptSafeJson(json{{"label", evil}});
  EXPECT_EQ(safe.find('<'), std::string::npos);
  EXPECT_EQ(safe.find('>'), std::string::npos);
  EXPECT_EQ(json::parse(safe)["label"], evil) << "and it still means the same";
  EXPECT_EQ(XmlEscape(evil).find('<'), std::string::npos);
}

}  // namespace
}  // namespace flashmark
