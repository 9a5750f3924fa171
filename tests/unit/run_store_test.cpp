#include "store/run_store.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "store/histogram_codec.h"
#include "store/schema.h"
#include "store/store_file.h"

namespace flashmark {
namespace {

class TempDatabase {
 public:
  TempDatabase() {
    std::string pattern = "/tmp/flashmark-store-test.XXXXXX";
    directory_ = mkdtemp(pattern.data());
  }
  ~TempDatabase() { std::filesystem::remove_all(directory_); }
  std::string path() const { return directory_ + "/runs.db"; }

 private:
  std::string directory_;
};

RunResult SampleRun() {
  RunResult run;
  run.spec.mode = IoMode::kRndRw;
  run.spec.read_fraction = 0.7;
  run.spec.block_sizes = {{4096, 60}, {65536, 40}};
  run.spec.threads = 4;
  run.spec.iodepth = 8;
  run.spec.engine = "io_uring";
  run.spec.direct = true;
  run.spec.seed = 1234;
  run.spec.seed_given = true;
  run.spec.targets = {"/mnt/ssd"};
  run.spec.time = std::chrono::seconds(3);
  run.command_line = "flashmark run /mnt/ssd --mode rndrw";
  run.environment.host = "box";
  TargetInfo target;
  target.path = "/mnt/ssd";
  target.kind = "file set";
  target.bytes = 1 << 30;
  target.file_count = 64;
  target.filesystem = "xfs";
  target.mount_point = "/mnt/ssd";
  target.mount_options = "rw,noatime";
  target.device = "/dev/nvme0n1";
  run.environment.targets.push_back(target);
  run.tool_version = "0.1.0";
  run.start_unix_ns = 1'700'000'000'000'000'000;
  for (uint32_t i = 0; i < 3; ++i) {
    IntervalSample sample;
    sample.index = i;
    sample.start_ns = i * 1'000'000'000ull;
    sample.end_ns = (i + 1) * 1'000'000'000ull;
    sample.read = {1000 + i, (1000 + i) * 4096ull};
    sample.write = {500, 500 * 65536ull};
    sample.fsyncs = i;
    sample.read_latency.Add(80'000 + i * 1000, 900);
    sample.read_latency.Add(2'000'000, 100 + i);
    sample.write_latency.Add(150'000, 500);
    run.intervals.push_back(sample);
  }
  return run;
}

TEST(HistogramCodec, RoundTripsAndRejectsGarbage) {
  LatencyHistogram histogram;
  histogram.Add(5, 3);
  histogram.Add(1'000'000, 7);
  histogram.Add(3'600'000'000'000ull, 1);
  auto decoded = DecodeHistogram(EncodeHistogram(histogram));
  ASSERT_TRUE(decoded.ok());
  ASSERT_EQ(decoded->buckets().size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(decoded->buckets()[i].index, histogram.buckets()[i].index);
    EXPECT_EQ(decoded->buckets()[i].count, histogram.buckets()[i].count);
  }
  EXPECT_TRUE(DecodeHistogram(EncodeHistogram(LatencyHistogram())).ok());
  const std::vector<uint8_t> truncated = {0x85};
  EXPECT_FALSE(DecodeHistogram(truncated).ok());
}

TEST(RunStore, RoundTripOfARunWithTagsAndIntervals) {
  TempDatabase db;
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok()) << store.error().message;
  RunResult run = SampleRun();
  auto id = store->BeginRun(
      run,
      {"duo", {{"device", "ioDrive2"}, {"price", "5999"}}, "flashmark", ""});
  ASSERT_TRUE(id.ok()) << id.error().message;
  for (const auto& sample : run.intervals) {
    ASSERT_TRUE(store->AppendInterval(*id, sample).ok());
  }
  run.status = RunStatus::kOk;
  run.end_unix_ns = run.start_unix_ns + 3'000'000'000;
  run.summary.cpu_user_seconds = 1.5;
  ASSERT_TRUE(store->FinishRun(*id, run).ok());

  auto loaded = store->LoadRun(*id);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const RunResult& back = loaded->run;
  EXPECT_EQ(loaded->labels.label, "duo");
  ASSERT_EQ(loaded->labels.tags.size(), 2u);
  EXPECT_EQ(loaded->labels.tags[0],
            (std::pair<std::string, std::string>{"device", "ioDrive2"}));
  EXPECT_EQ(back.status, RunStatus::kOk);
  EXPECT_EQ(back.spec.mode, IoMode::kRndRw);
  EXPECT_DOUBLE_EQ(back.spec.read_fraction, 0.7);
  ASSERT_EQ(back.spec.block_sizes.size(), 2u);
  EXPECT_EQ(back.spec.block_sizes[1].bytes, 65536u);
  EXPECT_EQ(back.spec.block_sizes[1].weight, 40u);
  EXPECT_EQ(back.spec.engine, "io_uring");
  EXPECT_TRUE(back.spec.direct);
  EXPECT_EQ(back.spec.seed, 1234u);
  EXPECT_EQ(back.spec.time, std::chrono::seconds(3));
  EXPECT_EQ(back.command_line, run.command_line);
  EXPECT_EQ(back.environment.targets.at(0).filesystem, "xfs");
  EXPECT_EQ(back.environment.targets.at(0).mount_options, "rw,noatime");
  ASSERT_EQ(back.intervals.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back.intervals[i].read.ios, run.intervals[i].read.ios);
    EXPECT_EQ(back.intervals[i].write.bytes, run.intervals[i].write.bytes);
    EXPECT_EQ(back.intervals[i].fsyncs, run.intervals[i].fsyncs);
    EXPECT_EQ(back.intervals[i].read_latency.count(), 1000u + i);
    EXPECT_DOUBLE_EQ(back.intervals[i].read_latency.Quantile(0.99),
                     run.intervals[i].read_latency.Quantile(0.99));
  }
  EXPECT_DOUBLE_EQ(back.summary.cpu_user_seconds, 1.5);
  EXPECT_DOUBLE_EQ(back.summary.read_mibs.median, 1001 * 4096 / 1048576.0);

  RunFilter by_tag;
  by_tag.tags = {{"device", "ioDrive2"}};
  auto listed = store->ListRuns(by_tag);
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->size(), 1u);
  by_tag.tags = {{"device", "other"}};
  EXPECT_TRUE(store->ListRuns(by_tag)->empty());

  ASSERT_TRUE(store->DeleteRun(*id).ok());
  auto gone = store->LoadRun(*id);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().exit_code, kUsageExit);
  EXPECT_FALSE(store->DeleteRun(*id).ok());
}

TEST(RunStore, RunningRunOfADeadProcessReadsBackInterrupted) {
  TempDatabase db;
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok());
  auto id = store->BeginRun(SampleRun(), {});
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(store->LoadRun(*id)->run.status, RunStatus::kRunning)
      << "this process still lives";
  // Pretend the writer was a process that has exited.
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  auto raw = Database::Open(db.path(), false);
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(
      raw->Execute("UPDATE runs SET pid = " + std::to_string(child)).ok());
  EXPECT_EQ(store->LoadRun(*id)->run.status, RunStatus::kInterrupted);
}

// Issue 11, finding 20: `list` showed "0 ns -" for a killed run (no end,
// no stored summary) that show and analyze read fine: the list computes
// its summary from the interval counters as LoadRun does.
TEST(RunStore, ListOfAKilledRunSummarizesItsIntervals) {
  TempDatabase db;
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok());
  const RunResult run = SampleRun();
  auto id = store->BeginRun(run, {"killed", {}, "flashmark", ""});
  ASSERT_TRUE(id.ok());
  for (const auto& sample : run.intervals) {
    ASSERT_TRUE(store->AppendInterval(*id, sample).ok());
  }
  // (no FinishRun: the writer was killed)
  auto loaded = store->LoadRun(*id);
  ASSERT_TRUE(loaded.ok());
  auto listed = store->ListRuns({});
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  const RunSummary& s = listed->front().run.summary;
  EXPECT_DOUBLE_EQ(s.elapsed_seconds, 3);
  EXPECT_GT(s.read_mibs.median, 0);
  EXPECT_DOUBLE_EQ(s.read_mibs.median, loaded->run.summary.read_mibs.median);
  EXPECT_DOUBLE_EQ(s.write_mibs.median, loaded->run.summary.write_mibs.median);
  EXPECT_DOUBLE_EQ(s.iops.median, loaded->run.summary.iops.median);
  EXPECT_EQ(s.read.ios, loaded->run.summary.read.ios);
  EXPECT_TRUE(listed->front().run.intervals.empty());  // a list holds none
}

// A reader that follows a run as it grows (flashmark serve) reads its
// header alone, then each interval once, from where it stopped.
TEST(RunStore, ARunIsFollowedIntervalByInterval) {
  TempDatabase db;
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok());
  auto none = store->NewestRunId();
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  const RunResult run = SampleRun();
  auto id = store->BeginRun(run, {"growing", {{"k", "v"}}, "flashmark", ""});
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(store->AppendInterval(*id, run.intervals[0]).ok());
  EXPECT_EQ(store->NewestRunId()->value_or(0), *id);

  auto header = store->LoadRunHeader(*id);
  ASSERT_TRUE(header.ok()) << header.error().message;
  EXPECT_EQ(header->labels.label, "growing");
  EXPECT_EQ(header->labels.tags.size(), 1u);
  EXPECT_EQ(header->run.spec.engine, "io_uring");
  EXPECT_TRUE(header->run.intervals.empty());  // nothing read from them
  EXPECT_EQ(header->run.summary.read.ios, 0u);

  std::vector<IntervalSample> seen;
  const auto collect = [&seen](IntervalSample sample) {
    seen.push_back(std::move(sample));
    return OkStatus();
  };
  ASSERT_TRUE(store->VisitIntervalsFrom(*id, 0, collect).ok());
  ASSERT_EQ(seen.size(), 1u);
  for (size_t k = 1; k < run.intervals.size(); ++k)
    ASSERT_TRUE(store->AppendInterval(*id, run.intervals[k]).ok());
  ASSERT_TRUE(store->VisitIntervalsFrom(*id, seen.size(), collect).ok());
  ASSERT_EQ(seen.size(), run.intervals.size());
  for (size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].read.ios, run.intervals[k].read.ios) << k;
    EXPECT_EQ(seen[k].read_latency.count(),
              run.intervals[k].read_latency.count())
        << k;  // with its histograms
  }
  EXPECT_FALSE(store->LoadRunHeader(*id + 1).ok());
}

// Loaded without its histograms (show, analyze), a killed run still has
// its whole-run latency: merged from the histograms one interval at a time.
TEST(RunStore, AKilledRunLoadedWithoutHistogramsKeepsItsLatency) {
  TempDatabase db;
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok());
  RunResult run = SampleRun();
  run.intervals[1].schedule_latency.Add(40'000, 7);
  auto id = store->BeginRun(run, {"killed", {}, "flashmark", ""});
  ASSERT_TRUE(id.ok());
  for (const auto& sample : run.intervals) {
    ASSERT_TRUE(store->AppendInterval(*id, sample).ok());
  }
  auto whole = store->LoadRun(*id);
  auto counters = store->LoadRun(*id, /*with_histograms=*/false);
  ASSERT_TRUE(whole.ok() && counters.ok());
  EXPECT_TRUE(counters->run.intervals[0].read_latency.empty());
  const RunSummary& a = whole->run.summary;
  const RunSummary& b = counters->run.summary;
  EXPECT_EQ(b.read_latency.count, 900u * 3 + 100 + 101 + 102);
  EXPECT_EQ(b.write_latency.count, 1500u);
  EXPECT_EQ(b.schedule_latency.count, 7u);
  for (const auto& [x, y] : {std::pair{a.read_latency, b.read_latency},
                             {a.write_latency, b.write_latency},
                             {a.latency, b.latency},
                             {a.schedule_latency, b.schedule_latency}}) {
    EXPECT_EQ(x.count, y.count);
    EXPECT_DOUBLE_EQ(x.p50, y.p50);
    EXPECT_DOUBLE_EQ(x.p99, y.p99);
    EXPECT_DOUBLE_EQ(x.max, y.max);
    EXPECT_DOUBLE_EQ(x.mean, y.mean);
  }
}

// Issue 11, finding 15: a path, label or tag that is not UTF-8 aborted the
// program when stored (JSON dump); the store keeps its exact bytes.
TEST(RunStore, KeepsBytesThatAreNotUtf8Exactly) {
  TempDatabase db;
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok());
  const std::string path = "/tmp/x\xffy";
  RunResult run = SampleRun();
  run.spec.targets = {path};
  run.environment.targets[0].path = path;
  run.environment.targets[0].mount_options = "rw,\xc3";
  run.command_line = "flashmark run " + path;
  auto id = store->BeginRun(run, {"l\xc3", {{"k", "v\xff"}}, "flashmark", ""});
  ASSERT_TRUE(id.ok()) << id.error().message;
  for (const auto& sample : run.intervals) {
    ASSERT_TRUE(store->AppendInterval(*id, sample).ok());
  }
  run.status = RunStatus::kOk;
  ASSERT_TRUE(store->FinishRun(*id, run).ok());
  auto loaded = store->LoadRun(*id);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->run.spec.targets, std::vector<std::string>{path});
  EXPECT_EQ(loaded->run.environment.targets.at(0).path, path);
  EXPECT_EQ(loaded->run.environment.targets.at(0).mount_options, "rw,\xc3");
  EXPECT_EQ(loaded->run.command_line, run.command_line);
  EXPECT_EQ(loaded->labels.label, "l\xc3");
  ASSERT_EQ(loaded->labels.tags.size(), 1u);
  EXPECT_EQ(loaded->labels.tags[0].second, "v\xff");
}

TEST(RunStore, MigratesASchemaV1DatabaseAndKeepsItsRuns) {
  TempDatabase db;
  {
    auto raw = Database::Open(db.path(), true);
    ASSERT_TRUE(raw.ok());
    std::ifstream fixture(FLASHMARK_FIXTURES "/schema_v1.sql");
    ASSERT_TRUE(fixture) << "fixture missing";
    std::stringstream sql;
    sql << fixture.rdbuf();
    ASSERT_TRUE(raw->Execute(sql.str()).ok());
    EXPECT_EQ(*SchemaVersion(*raw), 1);
  }
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok()) << store.error().message;
  auto raw = Database::Open(db.path(), false);
  EXPECT_EQ(*SchemaVersion(*raw), kSchemaVersion);
  auto run = store->LoadRun(1);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->labels.label, "from-v1");
  EXPECT_EQ(run->labels.source, "flashmark");
  EXPECT_EQ(run->run.status, RunStatus::kOk);
  EXPECT_EQ(run->run.spec.mode, IoMode::kRndWr);
  ASSERT_EQ(run->run.intervals.size(), 2u);
  EXPECT_EQ(run->run.intervals[1].write.ios, 24000u);
  EXPECT_EQ(run->run.intervals[1].spans, 1u) << "v4 default for old rows";
  EXPECT_TRUE(run->labels.tags.empty());
  // A v2 feature works on the migrated file.
  auto id =
      store->BeginRun(SampleRun(), {"new", {{"k", "v"}}, "flashmark", ""});
  EXPECT_TRUE(id.ok());
}

TEST(RunStore, AStallMergedIntoOneIntervalKeepsItsTimesAndSpan) {
  TempDatabase db;
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok()) << store.error().message;
  RunResult run = SampleRun();
  // The sampler could not run from 2.0003 s to 5.0001 s.
  run.intervals[2].start_ns = 2'000'300'000;
  run.intervals[2].end_ns = 5'000'100'000;
  run.intervals[2].spans = 3;
  auto id = store->BeginRun(run, {});
  ASSERT_TRUE(id.ok()) << id.error().message;
  for (const auto& sample : run.intervals) {
    ASSERT_TRUE(store->AppendInterval(*id, sample).ok());
  }
  auto loaded = store->LoadRun(*id);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ASSERT_EQ(loaded->run.intervals.size(), 3u);
  const IntervalSample& back = loaded->run.intervals[2];
  EXPECT_EQ(back.spans, 3u);
  EXPECT_EQ(back.start_ns, 2'000'300'000u);
  EXPECT_EQ(back.end_ns, 5'000'100'000u);
  EXPECT_EQ(loaded->run.intervals[1].spans, 1u);
  EXPECT_DOUBLE_EQ(back.Iops(), (1002 + 500) / 2.9998);
}

TEST(RunStore, RefusesANewerSchemaAndAFileThatIsNotADatabase) {
  TempDatabase db;
  {
    auto raw = Database::Open(db.path(), true);
    ASSERT_TRUE(raw->Execute("PRAGMA user_version = 99").ok());
  }
  auto newer = RunStore::Open(db.path());
  ASSERT_FALSE(newer.ok());
  EXPECT_NE(newer.error().message.find("schema v99, newer"), std::string::npos);

  const std::string junk = db.path() + ".junk";
  std::ofstream(junk) << "this is not a database, just text long enough to "
                         "look like a header of something else entirely.";
  auto corrupt = RunStore::Open(junk);
  ASSERT_FALSE(corrupt.ok());
  EXPECT_NE(corrupt.error().message.find("not a database"), std::string::npos)
      << corrupt.error().message;
}

// Several processes opening one new database at once (targets run at once,
// a test polling a sweep's database) all find it flashmark's: none may read
// the schema version before another's migration and the tables after it.
// The processes start together (a pipe closed as the barrier) and each one
// opens or checks the file over and over while the first ones create it.
TEST(RunStore, ProcessesOpeningOneNewDatabaseAtOnceAllSucceed) {
  constexpr int kRounds = 60;
  constexpr int kProcesses = 6;
  for (int round = 0; round < kRounds; ++round) {
    TempDatabase db;
    int barrier[2];
    ASSERT_EQ(pipe(barrier), 0);
    std::vector<pid_t> children;
    for (int i = 0; i < kProcesses; ++i) {
      const pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        close(barrier[1]);
        char byte;
        (void)!read(barrier[0], &byte, 1);  // returns at the parent's close
        int failures = 0;
        const auto until =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(40);
        while (std::chrono::steady_clock::now() < until) {
          std::string error;
          if (i % 3 == 0) {
            auto opened = RunStore::Open(db.path());
            if (!opened.ok()) error = opened.error().message;
          } else if (Status checked = CheckStoreFile(db.path(), false);
                     !checked.ok()) {
            error = checked.error().message;
          }
          if (!error.empty()) {
            fprintf(stderr, "round %d process %d: %s\n", round, i,
                    error.c_str());
            ++failures;
          }
        }
        _exit(failures == 0 ? 0 : 1);
      }
      children.push_back(pid);
    }
    close(barrier[0]);
    close(barrier[1]);
    for (const pid_t pid : children) {
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
          << "round " << round
          << ": a process did not find the database "
             "flashmark's (its error is above)";
    }
  }
}

}  // namespace
}  // namespace flashmark
