// The built-in application profiles (issue 40): each profile's mix as
// BuildJobSpec puts it in the JobSpec (sizes, patterns, regions, syncs,
// the commit), options that contradict a profile refused, unknown names
// answered with the known ones and the closest; the order of IOs a
// worker issues (ProfileCycle); the regions each worker gets
// (PlanWorkers); and a run on the null engine, where the commit histogram
// holds one entry per commit sync and the IOs come in the stated ratios.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "config/app_profiles.h"
#include "config/run_options.h"
#include "runner/runner.h"
#include "runner/work_plan.h"
#include "test_support.h"
#include "workload/profile_cycle.h"

namespace flashmark {
namespace {

using test_support::kKiB;
using test_support::kMiB;

JobSpec ProfileSpec(const std::string& name) {
  RunOptions options;
  options.profile = name;
  auto built = BuildJobSpec(options);
  EXPECT_TRUE(built.ok()) << built.error().message;
  return built.ok() ? built->spec : JobSpec{};
}

const ProfileStep& StepNamed(const AppProfile& profile,
                             const std::string& name) {
  for (const ProfileStep& step : profile.steps) {
    if (step.name == name) return step;
  }
  ADD_FAILURE() << profile.name << " has no step " << name;
  static const ProfileStep kNone;
  return kNone;
}

const ProfileRegion& RegionOf(const AppProfile& profile,
                              const ProfileStep& step) {
  return profile.regions.at(step.region);
}

TEST(AppProfile, InnodbIsPageReadsRedoCommitsAndDoublewriteThenInPlace) {
  const JobSpec spec = ProfileSpec("innodb");
  const AppProfile& p = spec.profile;
  ASSERT_EQ(p.name, "innodb");
  const ProfileStep& read = StepNamed(p, "page read");
  EXPECT_FALSE(read.write);
  EXPECT_EQ(read.bytes, 16 * kKiB);
  EXPECT_EQ(read.pattern, AccessPattern::kRandom);
  EXPECT_EQ(RegionOf(p, read).name, "tablespace");
  const ProfileStep& redo = StepNamed(p, "redo append");
  EXPECT_TRUE(redo.write && redo.commit && redo.sync_after);
  EXPECT_EQ(redo.sync, FsyncMode::kFsync);
  EXPECT_EQ(redo.pattern, AccessPattern::kSequential);
  EXPECT_EQ(RegionOf(p, redo).name, "redo log");
  EXPECT_TRUE(RegionOf(p, redo).per_thread) << "each thread appends its own";
  const ProfileStep& doublewrite = StepNamed(p, "doublewrite");
  const ProfileStep& in_place = StepNamed(p, "page write");
  EXPECT_TRUE(doublewrite.sync_after && in_place.sync_after);
  EXPECT_EQ(doublewrite.pattern, AccessPattern::kSequential);
  EXPECT_EQ(in_place.pattern, AccessPattern::kRandom);
  EXPECT_EQ(in_place.bytes, 16 * kKiB);
  EXPECT_EQ(RegionOf(p, in_place).name, "tablespace");
  // The doublewrite chunk carries the very pages written in place next.
  EXPECT_EQ(doublewrite.bytes * doublewrite.count,
            in_place.bytes * in_place.count);
  EXPECT_EQ(doublewrite.every, in_place.every);
  EXPECT_LT(&doublewrite, &in_place) << "doublewrite first, then in place";
  // The JobSpec around it: the profile's file set, threads, buffers.
  EXPECT_EQ(spec.file_num, 3);
  EXPECT_EQ(spec.threads, p.threads);
  EXPECT_EQ(MaxBlockSize(spec.block_sizes), ProfileMaxBytes(p));
  EXPECT_EQ(PerCommit(p).commit_syncs, 1.0);
}

TEST(AppProfile, RocksdbIsWalCommitsPointReadsAndSequentialBackgroundIo) {
  const AppProfile p = ProfileSpec("rocksdb").profile;
  const ProfileStep& wal = StepNamed(p, "WAL append");
  EXPECT_TRUE(wal.write && wal.commit && wal.sync_after);
  EXPECT_EQ(wal.sync, FsyncMode::kFdatasync);
  EXPECT_EQ(wal.pattern, AccessPattern::kSequential);
  const ProfileStep& read = StepNamed(p, "point read");
  EXPECT_FALSE(read.write);
  EXPECT_EQ(read.pattern, AccessPattern::kRandom);
  EXPECT_EQ(read.bytes, 4 * kKiB);
  for (const char* name : {"flush", "compaction read", "compaction write"}) {
    const ProfileStep& step = StepNamed(p, name);
    EXPECT_EQ(step.pattern, AccessPattern::kSequential) << name;
    EXPECT_EQ(step.bytes, kMiB) << name;
    EXPECT_EQ(RegionOf(p, step).name, "SST files") << name;
    EXPECT_FALSE(step.commit) << name;
  }
  // A flush writes back what the WAL took in since the last one.
  const ProfileStep& flush = StepNamed(p, "flush");
  EXPECT_EQ(flush.every * wal.bytes * wal.count, flush.bytes * flush.count);
  EXPECT_EQ(PerCommit(p).commit_syncs, 1.0);
}

TEST(AppProfile, PostgresWalIsEightKiBWalCommitsReadsAndCheckpoints) {
  const AppProfile p = ProfileSpec("postgres-wal").profile;
  const ProfileStep& wal = StepNamed(p, "WAL append");
  EXPECT_TRUE(wal.write && wal.commit && wal.sync_after);
  EXPECT_EQ(wal.bytes, 8 * kKiB);
  EXPECT_EQ(wal.sync, FsyncMode::kFdatasync);
  const ProfileStep& read = StepNamed(p, "page read");
  EXPECT_EQ(read.bytes, 8 * kKiB);
  EXPECT_FALSE(read.write);
  const ProfileStep& checkpoint = StepNamed(p, "checkpoint write");
  EXPECT_TRUE(checkpoint.write && checkpoint.sync_after);
  EXPECT_EQ(checkpoint.bytes, 8 * kKiB);
  EXPECT_EQ(checkpoint.sync, FsyncMode::kFsync);
  EXPECT_EQ(PerCommit(p).commit_syncs, 1.0);
}

TEST(AppProfile, EveryProfileSharesItsTargetWholeAndHasOneCommit) {
  for (const AppProfile& p : BuiltInProfiles()) {
    uint32_t percent = 0;
    for (const ProfileRegion& region : p.regions) percent += region.percent;
    EXPECT_EQ(percent, 100u) << p.name;
    int commits = 0;
    for (const ProfileStep& step : p.steps) {
      commits += step.commit ? 1 : 0;
      EXPECT_LT(step.region, p.regions.size()) << p.name;
      EXPECT_GT(step.bytes, 0u) << p.name;
      EXPECT_EQ(step.bytes % 4096, 0u) << p.name << ": O_DIRECT alignment";
    }
    EXPECT_EQ(commits, 1) << p.name;
    EXPECT_FALSE(p.summary.empty());
  }
}

TEST(AppProfile, AnUnknownNameListsTheKnownOnesAndSuggestsTheClosest) {
  for (const auto& [typed, closest] :
       std::map<std::string, std::string>{{"innodbb", "innodb"},
                                          {"postgres", "postgres-wal"},
                                          {"rocks", "rocksdb"},
                                          {"mysql", "innodb"}}) {
    RunOptions options;
    options.profile = typed;
    auto built = BuildJobSpec(options);
    ASSERT_FALSE(built.ok()) << typed;
    EXPECT_EQ(built.error().exit_code, kUsageExit);
    EXPECT_NE(built.error().message.find("\"" + typed + "\""),
              std::string::npos);
    EXPECT_NE(built.error().message.find(ProfileNames()), std::string::npos)
        << built.error().message;
    if (typed != "mysql") {
      EXPECT_NE(built.error().hint.find("--profile " + closest),
                std::string::npos)
          << typed << ": " << built.error().hint;
    }
  }
}

TEST(AppProfile, OptionsThatSetWhatTheProfileSetsAreRefusedWithAHint) {
  const std::vector<std::pair<std::string, void (*)(RunOptions&)>> cases = {
      {"--mode", [](RunOptions& o) { o.mode = "rndwr"; }},
      {"--bs", [](RunOptions& o) { o.bs = "4k"; }},
      {"--fsync-every", [](RunOptions& o) { o.fsync_every = "1"; }},
      {"--fsync-mode", [](RunOptions& o) { o.fsync_mode = "fdatasync"; }},
      {"--read-pct", [](RunOptions& o) { o.read_pct = "50"; }},
      {"--verify", [](RunOptions& o) { o.verify = true; }},
      {"--file-num", [](RunOptions& o) { o.file_num = "64"; }},
  };
  for (const auto& [option, set] : cases) {
    RunOptions options;
    options.profile = "innodb";
    set(options);
    auto built = BuildJobSpec(options);
    ASSERT_FALSE(built.ok()) << option;
    EXPECT_EQ(built.error().exit_code, kUsageExit);
    EXPECT_NE(built.error().message.find(option), std::string::npos)
        << built.error().message;
    EXPECT_NE(built.error().message.find("--profile innodb"), std::string::npos)
        << built.error().message;
    EXPECT_NE(built.error().hint.find("drop " + option), std::string::npos)
        << built.error().hint;
  }
  // What does not contradict it is taken: threads, engine, direct IO.
  RunOptions options;
  options.profile = "innodb";
  options.threads = "2";
  options.engine = "libaio";
  options.direct = true;
  options.file_num = "3";
  auto built = BuildJobSpec(options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_EQ(built->spec.threads, 2);
  EXPECT_EQ(built->spec.engine, "libaio");
}

TEST(AppProfile, TheReproduceCommandNamesTheProfileNotItsParts) {
  JobSpec spec = ProfileSpec("postgres-wal");
  spec.targets = {"/mnt/x"};
  const std::string command = ReproduceCommand(spec);
  EXPECT_NE(command.find("--profile postgres-wal"), std::string::npos);
  EXPECT_EQ(command.find("--mode"), std::string::npos) << command;
  EXPECT_EQ(command.find("--bs"), std::string::npos) << command;
  EXPECT_EQ(command.find("--file-num"), std::string::npos) << command;
}

TEST(ProfileCycle, IssuesEachStepInOrderWithItsSyncsAndTheCommit) {
  const AppProfile p = ProfileSpec("innodb").profile;
  const std::vector<std::vector<Segment>> regions = {
      {{0, 0, 8 * kMiB}}, {{1, 0, 8 * kMiB}}, {{2, 0, 64 * kMiB}}};
  ProfileCycle cycle(p, regions, 42);
  const ProfileRates rates = PerCommit(p);
  const uint32_t every = StepNamed(p, "page write").every;
  std::map<std::string, int> ios;
  int commits = 0, syncs = 0, open_commit = 0;
  std::string previous_synced;
  const int cycles = static_cast<int>(every * 10);
  for (;;) {
    const ProfileIo io = cycle.Next();
    if (commits == cycles && io.step == 0) break;  // the next cycle begins
    const ProfileStep& step = p.steps.at(io.step);
    ++ios[step.name];
    EXPECT_EQ(io.length, step.bytes);
    EXPECT_EQ(io.write, step.write);
    EXPECT_EQ(io.where.file, step.region) << "one file per region";
    EXPECT_EQ(io.where.offset % step.bytes, 0u);
    if (io.commit_begins) ++open_commit;
    if (io.sync_after) {
      ++syncs;
      if (step.name == "page write") {
        EXPECT_EQ(previous_synced, "doublewrite")
            << "in place only after the doublewrite is durable";
      }
      previous_synced = step.name;
    }
    if (io.commit_ends) {
      EXPECT_EQ(open_commit, 1);
      open_commit = 0;
      ++commits;
    }
  }
  EXPECT_EQ(commits, cycles);
  EXPECT_DOUBLE_EQ(ios["page read"], rates.reads * commits);
  EXPECT_DOUBLE_EQ(ios["redo append"] + ios["doublewrite"] + ios["page write"],
                   rates.writes * commits);
  EXPECT_DOUBLE_EQ(syncs, rates.syncs * commits);
}

TEST(ProfilePlan, OneTargetIsSharedByRegionsAndLogsAreCutPerThread) {
  JobSpec spec = ProfileSpec("innodb");
  spec.threads = 4;
  const std::vector<IoFile> one = {{-1, 1024 * kMiB, "dev"}};
  auto plans = PlanWorkers(spec, one, 1);
  ASSERT_TRUE(plans.ok()) << plans.error().message;
  std::set<uint64_t> redo_starts;
  uint64_t covered = 0;
  for (const WorkerPlan& plan : *plans) {
    ASSERT_EQ(plan.regions.size(), 3u);
    const Segment& redo = plan.regions[0].at(0);
    redo_starts.insert(redo.begin);
    EXPECT_LE(redo.end, 1024 * kMiB * 10 / 100 + 1);
    const Segment& tablespace = plan.regions[2].at(0);
    EXPECT_EQ(tablespace.end, 1024 * kMiB) << "the rest is the tablespace";
    covered = tablespace.end - tablespace.begin;
  }
  EXPECT_EQ(redo_starts.size(), 4u) << "one redo slice per thread";
  EXPECT_NEAR(static_cast<double>(covered), 1024.0 * kMiB * 0.85, 2.0 * kMiB);
  // A file set of one file per region: region r is file r.
  const std::vector<IoFile> three = {
      {-1, 64 * kMiB, "a"}, {-1, 64 * kMiB, "b"}, {-1, 64 * kMiB, "c"}};
  plans = PlanWorkers(spec, three, 1);
  ASSERT_TRUE(plans.ok());
  for (uint32_t r = 0; r < 3; ++r) {
    EXPECT_EQ((*plans)[1].regions[r].at(0).file, r);
  }
  const std::vector<IoFile> two = {{-1, 64 * kMiB, "a"}, {-1, 64 * kMiB, "b"}};
  plans = PlanWorkers(spec, two, 1);
  ASSERT_FALSE(plans.ok());
  EXPECT_EQ(plans.error().exit_code, kUsageExit);
}

TEST(ProfileRun, OneCommitLatencyPerCommitSyncAndTheStatedRatios) {
  for (const AppProfile& profile : BuiltInProfiles()) {
    RunResult run;
    run.spec = ProfileSpec(profile.name);
    run.spec.engine = "null";
    run.spec.threads = 2;
    run.spec.io_limit = 40000;
    run.spec.seed = 3;
    run.spec.seed_given = true;
    const std::vector<IoFile> files = {{-1, 1024 * kMiB, ""}};
    auto done = ExecuteRun(std::move(run), files, RunHooks{});
    ASSERT_TRUE(done.ok()) << done.error().message;
    const RunSummary& s = done->summary;
    const double commits = static_cast<double>(s.commit_latency.count);
    ASSERT_GT(commits, 100) << profile.name;
    uint64_t in_intervals = 0;
    for (const IntervalSample& sample : done->intervals) {
      in_intervals += sample.commit_latency.count();
    }
    EXPECT_EQ(in_intervals, s.commit_latency.count);
    const ProfileRates rates = PerCommit(profile);
    // Each thread stops somewhere in its cycle: off by at most one of
    // each step's batches, and one of each sync, per thread.
    double batch_ios = 0, sync_steps = 0;
    for (const ProfileStep& step : profile.steps) {
      batch_ios += step.count;
      sync_steps += step.sync_after ? 1 : 0;
    }
    const double threads = 2;
    EXPECT_NEAR(s.read.ios, rates.reads * commits, threads * batch_ios)
        << profile.name;
    EXPECT_NEAR(s.write.ios, rates.writes * commits, threads * batch_ios)
        << profile.name;
    EXPECT_NEAR(static_cast<double>(s.fsyncs), rates.syncs * commits,
                threads * sync_steps)
        << profile.name;
  }
}

}  // namespace
}  // namespace flashmark
