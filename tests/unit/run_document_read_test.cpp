// Reading run documents back (document/run_document_read.h) and what a
// cluster rank sends rank 0 (cluster/rank_wire.h): every field a run
// document carries comes back as it was.
#include "document/run_document_read.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/run_summary.h"
#include "campaign/cluster_run.h"
#include "cluster/rank_wire.h"
#include "document/json_format.h"
#include "document/rank_identity.h"
#include "store/flashmark_import.h"

namespace flashmark {
namespace {

IntervalSample Sample(uint32_t index, uint64_t start_ns, uint64_t end_ns) {
  IntervalSample sample;
  sample.index = index;
  sample.start_ns = start_ns;
  sample.end_ns = end_ns;
  sample.read = {120, 120 * 4096};
  sample.write = {7, 7 * 16384};
  sample.fsyncs = 3;
  sample.errors = 1;
  sample.verify.checked = 40;
  sample.verify.torn = 2;
  for (uint64_t ns : {900ull, 1'500ull, 80'000ull, 2'000'000ull}) {
    sample.read_latency.Add(ns, 30);
    sample.write_latency.Add(ns * 3, 2);
  }
  sample.schedule_latency.Add(12'345, 5);
  sample.telemetry.cpu = CpuActivity{};
  sample.telemetry.cpu->user = 12.5;
  return sample;
}

void ExpectSameSample(const IntervalSample& a, const IntervalSample& b) {
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.end_ns, b.end_ns);
  EXPECT_EQ(a.partial, b.partial);
  EXPECT_EQ(a.spans, b.spans);
  EXPECT_EQ(a.read.ios, b.read.ios);
  EXPECT_EQ(a.read.bytes, b.read.bytes);
  EXPECT_EQ(a.write.bytes, b.write.bytes);
  EXPECT_EQ(a.fsyncs, b.fsyncs);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.verify.checked, b.verify.checked);
  EXPECT_EQ(a.verify.torn, b.verify.torn);
  EXPECT_EQ(a.read_latency.buckets().size(), b.read_latency.buckets().size());
  EXPECT_EQ(a.read_latency.count(), b.read_latency.count());
  EXPECT_EQ(a.write_latency.Quantile(0.5), b.write_latency.Quantile(0.5));
  EXPECT_EQ(a.schedule_latency.count(), b.schedule_latency.count());
  ASSERT_TRUE(b.telemetry.cpu.has_value());
  EXPECT_EQ(a.telemetry.cpu->user, b.telemetry.cpu->user);
}

RunResult ExampleRun() {
  RunResult run;
  run.spec.threads = 3;
  run.spec.iodepth = 8;
  run.spec.targets = {"/mnt/a"};
  run.command_line = "flashmark run /mnt/a --threads 3";
  run.tool_version = "0.1.0";
  run.environment.host = "node7";
  run.environment.engine_setup = "psync";
  run.environment.cluster = "2 ranks on 2 hosts";
  run.start_unix_ns = 1'700'000'000'123'456'789;
  // Ten days in: the seconds in the document still give the nanosecond.
  const uint64_t late = 864'000'000'000'123;
  run.intervals = {Sample(0, 0, 1'000'000'001), Sample(1, 1'000'000'001, late)};
  run.intervals.back().partial = true;
  run.intervals.back().spans = 2;
  run.status = RunStatus::kOk;
  run.end_unix_ns = run.start_unix_ns + late;
  run.summary = SummarizeRun(run.intervals, 864'000.0);
  run.summary.cpu_user_seconds = 1.25;
  run.summary.cpu_system_seconds = 0.5;
  return run;
}

TEST(RunDocumentReadTest, AWholeDocumentReadsBackAsItWasWritten) {
  const RunResult run = ExampleRun();
  auto back = RunFromJson(ToJson(run));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->spec.threads, 3);
  EXPECT_EQ(back->spec.targets, run.spec.targets);
  EXPECT_EQ(back->command_line, run.command_line);
  EXPECT_EQ(back->environment.host, "node7");
  EXPECT_EQ(back->environment.cluster, "2 ranks on 2 hosts");
  EXPECT_EQ(back->start_unix_ns, run.start_unix_ns);
  EXPECT_EQ(back->end_unix_ns, run.end_unix_ns);
  EXPECT_EQ(back->status, RunStatus::kOk);
  ASSERT_EQ(back->intervals.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    ExpectSameSample(back->intervals[k], run.intervals[k]);
  }
  EXPECT_EQ(back->summary.read.bytes, run.summary.read.bytes);
  EXPECT_EQ(back->summary.elapsed_seconds, 864'000.0);
  EXPECT_EQ(back->summary.cpu_user_seconds, 1.25);
}

TEST(RunDocumentReadTest, ADocumentStillRunningWasLeftByAProcessThatDied) {
  nlohmann::json document = ToJson(ExampleRun());
  document["status"] = "running";
  document.erase("summary");
  auto back = RunFromJson(document);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->status, RunStatus::kInterrupted);
  EXPECT_GT(back->summary.elapsed_seconds, 0);  // the last interval's end
}

TEST(RunDocumentReadTest, BadDocumentsNameWhatIsWrong) {
  nlohmann::json document = ToJson(ExampleRun());
  document["schema"] = "fio";
  auto wrong_schema = RunFromJson(document);
  ASSERT_FALSE(wrong_schema.ok());
  EXPECT_NE(wrong_schema.error().message.find("schema"), std::string::npos);

  document = ToJson(ExampleRun());
  document["intervals"][0].erase("read");
  auto no_read = RunFromJson(document);
  ASSERT_FALSE(no_read.ok());
  EXPECT_NE(no_read.error().message.find("interval"), std::string::npos);

  document = ToJson(ExampleRun());
  document["intervals"][1]["end"] = 0.5;  // before its start
  EXPECT_FALSE(RunFromJson(document).ok());
  document = ToJson(ExampleRun());
  document["intervals"][0]["start"] = -1.0;
  EXPECT_FALSE(RunFromJson(document).ok());
  document = ToJson(ExampleRun());
  document["status"] = "exploded";
  EXPECT_FALSE(RunFromJson(document).ok());
}

TEST(RankIdentityTest, ARanksIdentityReadsBackAndNothingElseDoes) {
  const RankIdentity identity{2, 4, "node7", "18ed56d1d95feefc"};
  const std::string text = RankIdentityText(identity);
  EXPECT_EQ(text, "rank 2 of 4 on node7; group 18ed56d1d95feefc");
  auto back = ParseRankIdentity(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->rank, 2);
  EXPECT_EQ(back->size, 4);
  EXPECT_EQ(back->host, "node7");
  EXPECT_EQ(back->group, "18ed56d1d95feefc");
  EXPECT_FALSE(ParseRankIdentity("4 ranks on 1 host (vm); start skew 1 ms"));
  EXPECT_FALSE(ParseRankIdentity("rank 4 of 4 on node7; group 1f"));
  EXPECT_FALSE(ParseRankIdentity(""));
}

TEST(FlashmarkImportTest, ARankDocumentJoinsItsGroupAndAPlainOneStandsAlone) {
  RunResult run = ExampleRun();
  run.environment.cluster = "rank 1 of 2 on node7; group abc123";
  auto rank = ParseFlashmarkDocument(
      ImportFile{"/tmp/rank1.json", ToJson(run).dump(), 0});
  ASSERT_TRUE(rank.ok()) << rank.error().message;
  EXPECT_EQ(rank->labels.label, "rank1");
  EXPECT_EQ(rank->labels.source, "flashmark");
  EXPECT_EQ(rank->labels.source_hash.size(), 64u);
  const Tags expected = {{"group", "abc123"}, {"rank", "1"}, {"host", "node7"}};
  EXPECT_EQ(rank->labels.tags, expected);
  EXPECT_EQ(rank->run.intervals.size(), 2u);

  auto plain = ParseFlashmarkDocument(
      ImportFile{"run.json", ToJson(ExampleRun()).dump(), 0});
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->labels.tags.empty());

  auto bad = ParseFlashmarkDocument(ImportFile{"bad.json", "{\"schema\":", 0});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().exit_code, kUsageExit);
  EXPECT_NE(bad.error().message.find("bad.json"), std::string::npos);
}

TEST(RankWireTest, HeaderIntervalsAndEndRebuildTheRankRun) {
  const RunResult run = ExampleRun();
  auto header = ParseRankMessage(HeaderMessage(run, 42));
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->kind, RankMessageKind::kHeader);
  EXPECT_EQ(header->start_on_rank0_clock_ns, 42);
  RunResult rebuilt = header->run;
  EXPECT_TRUE(rebuilt.intervals.empty());
  for (const IntervalSample& sample : run.intervals) {
    auto interval = ParseRankMessage(IntervalMessage(sample));
    ASSERT_TRUE(interval.ok());
    EXPECT_EQ(interval->kind, RankMessageKind::kInterval);
    ExpectSameSample(interval->sample, sample);
    rebuilt.intervals.push_back(interval->sample);
  }
  RunResult failed = run;
  failed.status = RunStatus::kFailed;
  failed.error =
      RunError{"EIO writing /mnt/a/f at offset 4096", "/mnt/a/f", 4096, 5};
  failed.environment.engine_setup = "psync, after the end";
  auto end = ParseRankMessage(EndMessage(failed, 12345));
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(end->kind, RankMessageKind::kEnd);
  EXPECT_EQ(end->mpi_ns, 12345u);
  ApplyEnd(rebuilt, end->run);
  EXPECT_EQ(rebuilt.status, RunStatus::kFailed);
  ASSERT_TRUE(rebuilt.error.has_value());
  EXPECT_EQ(rebuilt.error->offset, 4096u);
  EXPECT_EQ(rebuilt.end_unix_ns, run.end_unix_ns);
  EXPECT_EQ(rebuilt.environment.engine_setup, "psync, after the end");
  EXPECT_EQ(rebuilt.summary.read.bytes, run.summary.read.bytes);
  EXPECT_EQ(rebuilt.summary.cpu_system_seconds, 0.5);
}

TEST(RankWireTest, RankZeroStopsTheOthersWithAStopMessage) {
  auto stop = ParseRankMessage(StopMessage());
  ASSERT_TRUE(stop.ok());
  EXPECT_EQ(stop->kind, RankMessageKind::kStop);
}

TEST(RankWireTest, WhatIsNoRankMessageIsRefused) {
  EXPECT_FALSE(ParseRankMessage("not json").ok());
  EXPECT_FALSE(ParseRankMessage(R"({"type": "hello"})").ok());
  EXPECT_FALSE(ParseRankMessage(R"({"type": "end", "status": "?"})").ok());
  EXPECT_FALSE(ParseRankMessage(R"({"type": "interval", "sample": {}})").ok());
}

TEST(ClusterRunTest, HostAndRankNameEachRanksOwnTarget) {
  EXPECT_EQ(ForRank("/mnt/{host}/r{rank}", 3, "node7"), "/mnt/node7/r3");
  EXPECT_EQ(ForRank("/mnt/{rank}{rank}", 12, "h"), "/mnt/1212");
  EXPECT_EQ(ForRank("/mnt/{hos}/{ranks", 1, "h"), "/mnt/{hos}/{ranks");
  EXPECT_EQ(ForRank("", 1, "h"), "");
}

TEST(ClusterRunTest, HostsBecomeTheMpirunCommandOfTheSameRun) {
  RunOptions options;
  options.targets = {"/mnt/{host}"};
  options.threads = "4";
  options.direct = true;
  options.label = "fleet";
  options.tags = {"site=lab"};
  options.db = "/tmp/runs.db";
  options.hosts = {"a", "b", "b"};
  const auto argv = MpirunCommand(options, options.hosts, "/usr/bin/flashmark",
                                  /*as_root=*/false);
  const std::vector<std::string> head = {
      "mpirun", "-np",        "3", "--host", "a,b,b", "/usr/bin/flashmark",
      "run",    "/mnt/{host}"};
  ASSERT_GT(argv.size(), head.size());
  EXPECT_TRUE(std::equal(head.begin(), head.end(), argv.begin()));
  const auto has = [&argv](const std::vector<std::string>& run) {
    return std::search(argv.begin(), argv.end(), run.begin(), run.end()) !=
           argv.end();
  };
  EXPECT_TRUE(has({"--threads", "4"}));
  EXPECT_TRUE(has({"--direct"}));
  EXPECT_TRUE(has({"--label", "fleet"}));
  EXPECT_TRUE(has({"--tag", "site=lab"}));
  EXPECT_TRUE(has({"--db", "/tmp/runs.db"}));
  EXPECT_EQ(argv.back(), "--mpi");
  EXPECT_FALSE(has({"--hosts"}));
  EXPECT_FALSE(has({"--allow-run-as-root"}));
  const auto as_root =
      MpirunCommand(options, options.hosts, "/usr/bin/flashmark", true);
  EXPECT_EQ(as_root[1], "--allow-run-as-root");
}

}  // namespace
}  // namespace flashmark
