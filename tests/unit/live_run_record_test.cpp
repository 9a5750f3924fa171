// LiveRunRecord and the live view over a long run (issue 41): up to
// max_blocks intervals are kept whole, so a short run's live page and
// metrics are exactly those of its full samples; beyond, intervals merge
// into blocks of 2, 4, 8... (never more than max_blocks of them, whatever
// the run's length), whose counters and histograms add up exactly to the
// intervals', contiguous in time, a partial interval never merged with a
// full one; the interval count and the last full interval stay exact, and
// a snapshot keeps no interval histograms.
#include "report/live_run_record.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/run_analysis.h"
#include "analysis/run_summary.h"
#include "common/json_text.h"
#include "report/live_recorder.h"

namespace flashmark::live_run_record_test {
namespace {

constexpr uint64_t kInterval = 100'000'000;  // 100 ms

// Interval k: throughput and latency that vary with k, so that merging
// or dropping the wrong one shows.
IntervalSample Interval(uint32_t k, bool partial = false) {
  IntervalSample sample;
  sample.index = k;
  sample.start_ns = k * kInterval;
  sample.end_ns = (k + 1) * kInterval - (partial ? kInterval / 2 : 0);
  sample.partial = partial;
  sample.read = {100 + k % 7, (100 + k % 7) * 4096};
  sample.write = {50 + k % 3, (50 + k % 3) * 8192};
  sample.errors = k % 11 == 0 ? 1 : 0;
  sample.read_latency.Add(40'000 + 1000 * (k % 13), 60);
  sample.read_latency.Add(900'000 + 5000 * (k % 5), 40 + k % 7);
  sample.write_latency.Add(70'000 + 3000 * (k % 17), 50 + k % 3);
  return sample;
}

void ExpectSameHistogram(const LatencyHistogram& a, const LatencyHistogram& b) {
  ASSERT_EQ(a.count(), b.count());
  ASSERT_EQ(a.buckets().size(), b.buckets().size());
  for (size_t i = 0; i < a.buckets().size(); ++i) {
    EXPECT_EQ(a.buckets()[i].index, b.buckets()[i].index);
    EXPECT_EQ(a.buckets()[i].count, b.buckets()[i].count);
  }
}

Result<RunAnalysis> Analyze(const RunResult& run) {
  AnalysisOptions options = DefaultAnalysisOptions(run);
  options.heatmap_columns = 240;
  return AnalyzeRun(run, options, InMemoryHistograms(run));
}

RunResult Header() {
  RunResult run;
  run.spec.mode = IoMode::kRndRw;
  run.spec.interval = std::chrono::nanoseconds(kInterval);
  run.spec.time = std::chrono::seconds(3600);
  run.command_line = "flashmark run --serve";
  return run;
}

TEST(LiveRunRecord, KeepsEveryIntervalWholeUpToItsBlocks) {
  LiveRunRecord record(64);
  for (uint32_t k = 0; k < 64; ++k) record.Add(Interval(k));
  EXPECT_EQ(record.block_intervals(), 1u);
  ASSERT_EQ(record.blocks().size(), 64u);
  for (uint32_t k = 0; k < 64; ++k) {
    const IntervalSample expected = Interval(k);
    const IntervalSample& kept = record.blocks()[k];
    EXPECT_EQ(kept.index, k);
    EXPECT_EQ(kept.start_ns, expected.start_ns);
    EXPECT_EQ(kept.end_ns, expected.end_ns);
    EXPECT_EQ(kept.read.bytes, expected.read.bytes);
    EXPECT_EQ(kept.write.ios, expected.write.ios);
    ExpectSameHistogram(kept.read_latency, expected.read_latency);
    ExpectSameHistogram(kept.write_latency, expected.write_latency);
  }
  const RunResult view = record.View(Header());
  EXPECT_EQ(view.spec.interval, Header().spec.interval);
  EXPECT_EQ(view.intervals.size(), 64u);
  EXPECT_EQ(view.command_line, "flashmark run --serve");
}

TEST(LiveRunRecord, MergesIntoAtMostItsBlocksAndLosesNothing) {
  constexpr size_t kMax = 16;
  LiveRunRecord record(kMax);
  uint64_t read_bytes = 0, write_ios = 0, errors = 0;
  LatencyHistogram reads, writes;
  for (uint32_t k = 0; k < 1000; ++k) {
    const IntervalSample sample = Interval(k);
    record.Add(sample);
    read_bytes += sample.read.bytes;
    write_ios += sample.write.ios;
    errors += sample.errors;
    reads.Merge(sample.read_latency);
    writes.Merge(sample.write_latency);
    ASSERT_LE(record.blocks().size(), kMax) << "after interval " << k;
  }
  EXPECT_EQ(record.intervals(), 1000u);
  EXPECT_EQ(record.block_intervals(), 64u);  // 1000 / 16 -> 64 a block
  ASSERT_TRUE(record.last_full());
  EXPECT_EQ(record.last_full()->index, 999u);
  uint64_t seen_bytes = 0, seen_ios = 0, seen_errors = 0;
  LatencyHistogram seen_reads, seen_writes;
  uint64_t at = 0;
  for (size_t b = 0; b < record.blocks().size(); ++b) {
    const IntervalSample& block = record.blocks()[b];
    EXPECT_EQ(block.start_ns, at) << "block " << b;  // contiguous
    at = block.end_ns;
    if (b + 1 < record.blocks().size()) {  // whole blocks but the last
      EXPECT_EQ(block.end_ns - block.start_ns, 64 * kInterval);
      EXPECT_EQ(block.spans, 64u);
    }
    EXPECT_FALSE(block.partial);
    seen_bytes += block.read.bytes;
    seen_ios += block.write.ios;
    seen_errors += block.errors;
    seen_reads.Merge(block.read_latency);
    seen_writes.Merge(block.write_latency);
  }
  EXPECT_EQ(at, 1000 * kInterval);
  EXPECT_EQ(seen_bytes, read_bytes);
  EXPECT_EQ(seen_ios, write_ios);
  EXPECT_EQ(seen_errors, errors);
  ExpectSameHistogram(seen_reads, reads);
  ExpectSameHistogram(seen_writes, writes);
  // Analysed as intervals of the blocks' length.
  const RunResult view = record.View(Header());
  EXPECT_EQ(view.spec.interval, 64 * Header().spec.interval);
  EXPECT_EQ(view.intervals.size(), record.blocks().size());
}

TEST(LiveRunRecord, APartialIntervalIsNeverMergedWithAFullOne) {
  LiveRunRecord record(4);
  for (uint32_t k = 0; k < 10; ++k) record.Add(Interval(k));
  record.Add(Interval(10, true));
  const IntervalSample& last = record.blocks().back();
  EXPECT_TRUE(last.partial);
  EXPECT_EQ(last.index, 10u);
  EXPECT_EQ(last.read.bytes, Interval(10, true).read.bytes);
  EXPECT_FALSE(record.blocks()[record.blocks().size() - 2].partial);
  ASSERT_TRUE(record.last_full());
  EXPECT_EQ(record.last_full()->index, 9u);  // the partial one is not it
}

// What a snapshot copies under the lock is only what changed; the copy is
// the blocks, however many merges happened between two copies.
TEST(LiveRunRecord, AnIncrementalCopyEqualsTheBlocks) {
  LiveRunRecord record(8);
  std::vector<IntervalSample> copy;
  uint64_t generation = 0;
  for (uint32_t k = 0; k < 300; ++k) {
    record.Add(Interval(k));
    if (k % 3 != 0 && k % 17 != 5) continue;
    record.CopyBlocks(copy, generation);
    ASSERT_EQ(copy.size(), record.blocks().size()) << "after interval " << k;
    for (size_t b = 0; b < copy.size(); ++b) {
      const IntervalSample& block = record.blocks()[b];
      ASSERT_EQ(copy[b].start_ns, block.start_ns) << k << " " << b;
      ASSERT_EQ(copy[b].end_ns, block.end_ns) << k << " " << b;
      ASSERT_EQ(copy[b].read.ios, block.read.ios) << k << " " << b;
      ExpectSameHistogram(copy[b].read_latency, block.read_latency);
      ExpectSameHistogram(copy[b].write_latency, block.write_latency);
    }
  }
}

// The snapshot the recorder made before LiveRunRecord: the whole run,
// every interval with its histograms, analysed by the same rule.
LiveSnapshot FullSamplesSnapshot(const RunResult& header,
                                 const std::vector<IntervalSample>& samples) {
  StoredRun stored;
  stored.id = 7;
  stored.labels = RunLabels{"live", {{"disk", "nvme0"}}, "flashmark", ""};
  stored.run = header;
  stored.run.intervals = samples;
  stored.run.status = RunStatus::kRunning;
  stored.run.summary =
      SummarizeRun(stored.run.intervals, samples.back().end_ns / 1e9);
  auto analysis = Analyze(stored.run);
  EXPECT_TRUE(analysis.ok());
  LiveSnapshot snapshot;
  snapshot.states.push_back(LiveRunState::Of(stored.run));
  snapshot.runs.push_back({std::move(stored), std::move(*analysis), {}});
  return snapshot;
}

TEST(LiveRunRecord, AShortRunShowsWhatItsFullSamplesShow) {
  LiveRecorder recorder(RunLabels{"live", {{"disk", "nvme0"}}, "flashmark", ""},
                        Analyze);
  const RunResult header = Header();
  recorder.OnStart(header);
  recorder.SetRunId(7);
  std::vector<IntervalSample> samples;
  for (uint32_t k = 0; k < 600; ++k) {  // a cliff at 400: two regimes
    IntervalSample sample = Interval(k);
    if (k >= 400) sample.read.bytes /= 2;
    samples.push_back(sample);
    recorder.OnInterval(header, sample);
  }
  auto taken = recorder.Snapshot();
  ASSERT_TRUE(taken.ok()) << taken.error().message;
  const LiveSnapshot& live = **taken;
  const LiveSnapshot full = FullSamplesSnapshot(header, samples);
  EXPECT_EQ(live.states[0].block_intervals, 1u);
  EXPECT_EQ(JsonText(LiveReportData(live, "t", 1)),
            JsonText(LiveReportData(full, "t", 1)));
  EXPECT_EQ(LiveMetrics(live), LiveMetrics(full));
  EXPECT_EQ(live.runs[0].analysis.regimes.segments.size(),
            full.runs[0].analysis.regimes.segments.size());
  // No interval histogram is kept in the snapshot: the analysis merged
  // them, and what is drawn needs none.
  for (const IntervalSample& shown : live.runs[0].stored.run.intervals) {
    ASSERT_TRUE(shown.read_latency.empty() && shown.write_latency.empty());
  }
}

TEST(LiveRunRecord, ALongRunIsShownInBlocksWithItsExactCounts) {
  LiveRecorder recorder(RunLabels{"long", {}, "flashmark", ""}, Analyze);
  const RunResult header = Header();
  recorder.OnStart(header);
  recorder.SetRunId(3);
  constexpr uint32_t kCount = 5000;
  uint64_t read_bytes = 0;
  for (uint32_t k = 0; k < kCount; ++k) {
    const IntervalSample sample = Interval(k);
    read_bytes += sample.read.bytes;
    recorder.OnInterval(header, sample);
  }
  auto taken = recorder.Snapshot();
  ASSERT_TRUE(taken.ok()) << taken.error().message;
  const LiveSnapshot& live = **taken;
  ASSERT_EQ(live.runs.size(), 1u);
  const RunResult& shown = live.runs[0].stored.run;
  EXPECT_LE(shown.intervals.size(), kLiveMaxBlocks);
  EXPECT_EQ(live.states[0].intervals, kCount);
  EXPECT_EQ(live.states[0].block_intervals, 8u);  // 5000 / 1024 -> 8
  EXPECT_TRUE(live.states[0].running);
  EXPECT_DOUBLE_EQ(live.states[0].elapsed_seconds, kCount * 0.1);
  // Shown with the run's own interval (config, reproduce command).
  EXPECT_EQ(shown.spec.interval, header.spec.interval);
  EXPECT_EQ(shown.summary.read.bytes, read_bytes);
  const IntervalSample last = Interval(kCount - 1);
  const std::string metrics = LiveMetrics(live);
  EXPECT_NE(metrics.find(fmt::format("flashmark_intervals_total{{run=\"3\","
                                     "label=\"long\"}} {}\n",
                                     kCount)),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find(fmt::format("flashmark_iops{{run=\"3\",label="
                                     "\"long\"}} {}\n",
                                     last.Iops())),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find(fmt::format("flashmark_bytes_total{{run=\"3\",label="
                                     "\"long\",direction=\"read\"}} {}\n",
                                     static_cast<double>(read_bytes))),
            std::string::npos)
      << metrics;
  LatencyHistogram both = last.read_latency;
  both.Merge(last.write_latency);
  EXPECT_NE(metrics.find(fmt::format("flashmark_latency_seconds{{run=\"3\","
                                     "label=\"long\",quantile=\"0.99\"}} {}\n",
                                     both.Quantile(0.99) / 1e9)),
            std::string::npos)
      << metrics;
  const nlohmann::json data = LiveReportData(live, "t", 1);
  EXPECT_EQ(data["live"]["runs"][0]["intervals"], kCount);
  EXPECT_EQ(data["live"]["runs"][0]["block_intervals"], 8);
  bool said = false;
  for (const auto& note : data["notes"]) {
    said |= note.get<std::string>().find("blocks of 8 intervals") !=
            std::string::npos;
  }
  EXPECT_TRUE(said) << data["notes"].dump();
  EXPECT_EQ(data["runs"][0]["series"]["points"], shown.intervals.size());

  // The end: the run's own summary and status, no interval lost.
  RunResult end = header;
  end.status = RunStatus::kOk;
  end.summary.read.bytes = read_bytes;
  recorder.OnEnd(end);
  auto ended = recorder.Snapshot();
  ASSERT_TRUE(ended.ok());
  EXPECT_FALSE((*ended)->states[0].running);
  EXPECT_EQ((*ended)->states[0].intervals, kCount);
}

}  // namespace
}  // namespace flashmark::live_run_record_test
