// LiveRecorder: the output thread appends intervals while server threads
// take snapshots (run under TSan in `make tsan`); every snapshot is a
// consistent prefix of the run, analysed by the given rule, and the end
// marks it ended. LiveMetrics of a snapshot: OpenMetrics families, labels
// escaped, "# EOF" last.
#include "report/live_recorder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "analysis/run_analysis.h"

namespace flashmark {
namespace {

IntervalSample Interval(uint32_t k) {
  IntervalSample sample;
  sample.index = k;
  sample.start_ns = k * 100'000'000ull;
  sample.end_ns = (k + 1) * 100'000'000ull;
  sample.read = {100, 100 * 4096};
  sample.read_latency.Add(50'000, 100);
  return sample;
}

Result<RunAnalysis> Analyze(const RunResult& run) {
  AnalysisOptions options;
  options.metric = Metric::kReadMibs;
  options.warmup = WarmupMode::kNone;
  options.heatmap_columns = 10;
  return AnalyzeRun(run, options, InMemoryHistograms(run));
}

TEST(LiveRecorderTest, SnapshotsWhileIntervalsArrive) {
  LiveRecorder recorder(
      RunLabels{"live \"one\"", {{"dev ice", "a\\b"}}, "flashmark", ""},
      Analyze);
  ASSERT_TRUE(recorder.Snapshot().ok());
  EXPECT_FALSE((*recorder.Snapshot())->waiting.empty());  // not started
  RunResult run;
  run.spec.mode = IoMode::kRndRd;
  run.spec.time = std::chrono::seconds(10);
  recorder.OnStart(run);
  recorder.SetRunId(42);
  std::atomic<bool> done{false};
  std::thread output([&] {
    for (uint32_t k = 0; k < 200; ++k) {
      const IntervalSample sample = Interval(k);
      run.intervals.push_back(sample);
      recorder.OnInterval(run, sample);
    }
    run.status = RunStatus::kOk;
    recorder.OnEnd(run);
    done = true;
  });
  size_t last = 0;
  int taken = 0;
  while (!done || taken == 0) {
    auto taken_now = recorder.Snapshot();
    ASSERT_TRUE(taken_now.ok()) << taken_now.error().message;
    const std::shared_ptr<const LiveSnapshot> snapshot = *taken_now;
    ++taken;
    if (snapshot->runs.empty()) continue;
    const RunResult& seen = snapshot->runs[0].stored.run;
    EXPECT_GE(seen.intervals.size(), last);  // only ever grows
    last = seen.intervals.size();
    for (size_t k = 0; k < seen.intervals.size(); ++k) {
      ASSERT_EQ(seen.intervals[k].index, k);
    }
    EXPECT_EQ(snapshot->runs[0].stored.id, 42);
    EXPECT_EQ(snapshot->runs[0].analysis.intervals, seen.intervals.size());
  }
  output.join();
  auto ended = recorder.Snapshot();
  ASSERT_TRUE(ended.ok());
  const std::shared_ptr<const LiveSnapshot> end = *ended;
  // Nothing changed since: the same snapshot serves the next request.
  EXPECT_EQ(recorder.Snapshot()->get(), end.get());
  ASSERT_EQ(end->runs.size(), 1u);
  EXPECT_EQ(end->runs[0].stored.run.intervals.size(), 200u);
  EXPECT_FALSE(end->states[0].running);
  EXPECT_DOUBLE_EQ(end->states[0].elapsed_seconds, 20);
  EXPECT_EQ(end->states[0].time_limit_seconds, 10);

  const std::string metrics = LiveMetrics(*end);
  EXPECT_NE(metrics.find("# TYPE flashmark_iops gauge\n"), std::string::npos);
  EXPECT_NE(metrics.find("flashmark_iops{run=\"42\",label=\"live \\\"one\\\"\","
                         "tag_dev_ice=\"a\\\\b\"} 1000\n"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("flashmark_ios_total{"), std::string::npos);
  EXPECT_NE(metrics.find("flashmark_running{run=\"42\""), std::string::npos);
  EXPECT_EQ(metrics.substr(metrics.size() - 6), "# EOF\n");

  const nlohmann::json data = LiveReportData(*end, "t", 0.5);
  EXPECT_EQ(data["live"]["runs"][0]["id"], 42);
  EXPECT_FALSE(data["live"]["runs"][0]["running"].get<bool>());
  EXPECT_EQ(data["runs"].size(), 1u);
  // Nothing to draw yet: a document with no runs and the reason.
  const nlohmann::json waiting = LiveReportData(
      LiveSnapshot{{}, {}, "waiting for the first full interval"}, "t", 1);
  EXPECT_TRUE(waiting["runs"].empty());
  EXPECT_EQ(waiting["notes"][0], "waiting for the first full interval");
}

}  // namespace
}  // namespace flashmark
