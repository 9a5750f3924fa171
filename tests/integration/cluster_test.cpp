// `flashmark run --mpi` under a real mpirun: 4 ranks oversubscribed on this
// machine, each on its own file set ({rank} in the target), rank 0 storing
// every rank's run and the aggregate in one SQLite file.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "binary_runner.h"
#include "cluster/mpi_session.h"
#include "document/run_document_read.h"
#include "model/latency_histogram.h"
#include "store/run_store.h"

namespace flashmark {
namespace {

using testing::Invocation;
using testing::TempDir;

class ClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!MpiAvailable()) {
      GTEST_SKIP() << "flashmark was built without MPI (scripts/setup.sh "
                      "installs libopenmpi-dev)";
    }
    if (std::system("command -v mpirun >/dev/null 2>&1") != 0) {
      GTEST_SKIP()
          << "mpirun not found (scripts/setup.sh installs openmpi-bin)";
    }
    // OpenMPI refuses root unless told twice; CI runs as root.
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    // OpenMPI's own allocations outlive MPI_Finalize (the ASan build).
    setenv("LSAN_OPTIONS", "detect_leaks=0", 1);
    for (int rank = 0; rank < 4; ++rank) {
      std::filesystem::create_directory(RankDirectory(rank));
    }
  }

  std::string RankDirectory(int rank) const {
    return dir_.File("d" + std::to_string(rank));
  }
  std::string Database() const { return dir_.File("cluster.db"); }

  // mpirun -np N flashmark ARGS --mpi --db DATABASE (ARGS: "run" ...)
  std::vector<std::string> Mpirun(int ranks, std::vector<std::string> args) {
    std::vector<std::string> argv = {"mpirun", "--oversubscribe", "-np",
                                     std::to_string(ranks), FLASHMARK_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--mpi", "--db", Database()});
    return argv;
  }

  std::vector<StoredRun> Runs(RunStore& store, const std::string& key,
                              const std::string& value) {
    RunFilter filter;
    filter.tags.emplace_back(key, value);
    auto runs = store.ListRuns(filter);
    EXPECT_TRUE(runs.ok());
    return runs.ok() ? *runs : std::vector<StoredRun>{};
  }

  TempDir dir_;
};

std::string Tag(const StoredRun& run, const std::string& key) {
  for (const auto& [k, v] : run.labels.tags) {
    if (k == key) return v;
  }
  return "";
}

// The number right after `marker` in `text`; -1 when there is none.
double NumberAfter(const std::string& text, const std::string& marker) {
  const size_t at = text.find(marker);
  if (at == std::string::npos) return -1;
  char* end = nullptr;
  const double value = std::strtod(text.c_str() + at + marker.size(), &end);
  return end == text.c_str() + at + marker.size() ? -1 : value;
}

std::vector<std::string> CsvCells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream split(line);
  for (std::string cell; std::getline(split, cell, ',');) cells.push_back(cell);
  return cells;
}

bool SameBuckets(const LatencyHistogram& a, const LatencyHistogram& b) {
  if (a.buckets().size() != b.buckets().size()) return false;
  for (size_t i = 0; i < a.buckets().size(); ++i) {
    if (a.buckets()[i].index != b.buckets()[i].index ||
        a.buckets()[i].count != b.buckets()[i].count) {
      return false;
    }
  }
  return true;
}

TEST_F(ClusterTest, AggregateIsTheExactSumOfItsRanksIntervalByInterval) {
  // Rate-limited, so that four ranks on two cores are not CPU-bound.
  const Invocation run = testing::RunProgram(
      Mpirun(4,
             {"run", dir_.File("d{rank}"), "--size", "8M", "--time", "1500ms",
              "--interval", "100ms", "--rate", "2000", "--label", "four"}),
      120);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("slowest rank "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("aggregate run "), std::string::npos) << run.out;

  auto store = RunStore::Open(Database());
  ASSERT_TRUE(store.ok());
  const auto aggregates = Runs(*store, "rank", "all");
  ASSERT_EQ(aggregates.size(), 1u);
  auto aggregate = store->LoadRun(aggregates[0].id);
  ASSERT_TRUE(aggregate.ok());
  const RunResult& total = aggregate->run;
  EXPECT_EQ(total.status, RunStatus::kOk);
  EXPECT_EQ(total.spec.threads, 4);
  EXPECT_EQ(total.environment.targets.size(), 4u);
  const std::string group = Tag(*aggregate, "group");
  ASSERT_FALSE(group.empty());
  const auto members = Runs(*store, "group", group);
  ASSERT_EQ(members.size(), 5u);  // the four ranks and the aggregate

  std::vector<RunResult> ranks(4);
  for (const StoredRun& member : members) {
    const std::string rank = Tag(member, "rank");
    if (rank == "all") continue;
    auto loaded = store->LoadRun(member.id);
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(Tag(*loaded, "host"), loaded->run.environment.host);
    EXPECT_EQ(loaded->labels.label, "four [rank " + rank + "]");
    ranks.at(std::stoi(rank)) = loaded->run;
    EXPECT_EQ(loaded->run.environment.targets.at(0).path,
              RankDirectory(std::stoi(rank)));
  }

  // Every full interval is the sum of the ranks' same stretch of time,
  // exactly (a rank's samples up to the configured interval the aggregate's
  // ends at: one, or several where another rank was stalled); its
  // histograms the merge of theirs.
  size_t full = 0;
  uint64_t boundary = 0;
  std::vector<size_t> next(ranks.size(), 0);
  std::vector<uint64_t> reach(ranks.size(), 0);
  for (const IntervalSample& sample : total.intervals) {
    if (sample.partial) continue;
    const size_t k = full++;
    boundary += sample.spans;
    uint64_t ios = 0, bytes = 0;
    LatencyHistogram merged;
    for (size_t r = 0; r < ranks.size(); ++r) {
      while (reach[r] < boundary) {
        ASSERT_GT(ranks[r].intervals.size(), next[r]);
        const IntervalSample& part = ranks[r].intervals[next[r]++];
        reach[r] += part.spans;
        ios += part.read.ios;
        bytes += part.read.bytes;
        merged.Merge(part.read_latency);
      }
      EXPECT_EQ(reach[r], boundary) << "rank " << r << ", interval " << k;
    }
    EXPECT_EQ(sample.read.ios, ios) << "interval " << k;
    EXPECT_EQ(sample.read.bytes, bytes) << "interval " << k;
    EXPECT_TRUE(SameBuckets(sample.read_latency, merged)) << "interval " << k;
  }
  EXPECT_GE(full, 12u);
  // The totals count every IO, the drains of the ranks included.
  uint64_t bytes = 0;
  for (const RunResult& rank : ranks) bytes += rank.summary.read.bytes;
  EXPECT_EQ(total.summary.read.bytes, bytes);
  EXPECT_GT(bytes, 0u);

  // One common start: every rank's intervals count from the same instant
  // (one host, one clock), so their deadlines fall together.
  for (const RunResult& rank : ranks) {
    EXPECT_LT(std::llabs(rank.start_unix_ns - ranks[0].start_unix_ns),
              1'000'000)
        << rank.start_unix_ns << " against " << ranks[0].start_unix_ns;
  }
  const std::string& cluster = total.environment.cluster;
  EXPECT_EQ(cluster.rfind("4 ranks on 1 host ", 0), 0u) << cluster;
  double skew = NumberAfter(cluster, "start skew ");
  ASSERT_GE(skew, 0) << cluster;
  if (geteuid() == 0) {  // the wake-up at real-time priority (CI)
    // This VM wakes a sleeper 0.6-1.8 ms late about once a second
    // (bench/README.md): a start such a stall hit is run again, twice at
    // most, and one of the starts must hold.
    std::string starts = cluster;
    for (int again = 0; again < 2 && skew >= 1.0; ++again) {
      const Invocation rerun = testing::RunProgram(
          Mpirun(4, {"run", dir_.File("d{rank}"), "--size", "8M", "--time",
                     "300ms", "--interval", "100ms", "--rate", "2000"}),
          120);
      ASSERT_EQ(rerun.exit_code, 0) << rerun.out << rerun.err;
      const auto all = Runs(*store, "rank", "all");
      auto latest = store->LoadRun(all.back().id);
      ASSERT_TRUE(latest.ok());
      skew = NumberAfter(latest->run.environment.cluster, "start skew ");
      starts += "; again: " + latest->run.environment.cluster;
    }
    EXPECT_LT(skew, 1.0) << starts;
  } else {
    std::cout << "not root: the start skew (" << skew
              << " ms) is not held to 1 ms\n";
  }
  EXPECT_NE(cluster.find("first rank finished at"), std::string::npos);

  // `show` says how the run spread.
  const Invocation show = testing::RunFlashmark(
      {"show", std::to_string(aggregates[0].id), "--db", Database()});
  EXPECT_NE(show.out.find("cluster  4 ranks on 1 host"), std::string::npos)
      << show.out;
  // Its reproduce line is the mpirun that ran it, not a plain run.
  EXPECT_NE(show.out.find("reproduce with\n  mpirun -np 4 "), std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("d{rank}"), std::string::npos) << show.out;

  // `report AGGREGATE` is the group's page: its ranks come with it, in a
  // table per rank and a rank x time heatmap whose cells are the ranks'
  // own per-interval figures.
  const std::string id = std::to_string(aggregates[0].id);
  const Invocation report =
      testing::RunFlashmark({"report", id, "--db", Database()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("is the aggregate of 4 ranks"), std::string::npos)
      << report.out;
  EXPECT_NE(report.out.find("cluster: 4 ranks on 1 host"), std::string::npos)
      << report.out;
  const std::string csv = dir_.File("csv");
  const Invocation tables =
      testing::RunFlashmark({"report", id, "--db", Database(), "--csv", csv,
                             "--md", dir_.File("group.md")});
  ASSERT_EQ(tables.exit_code, 0) << tables.err;
  std::vector<std::vector<std::string>> rows;  // cluster-ranks.csv
  std::ifstream ranks_csv(csv + "/cluster-ranks.csv");
  for (std::string line; std::getline(ranks_csv, line);) {
    rows.push_back(CsvCells(line));
  }
  ASSERT_EQ(rows.size(), 6u);  // header, 4 ranks, the aggregate
  uint64_t rank_bytes = 0;
  double share = 0;
  for (size_t r = 1; r <= 4; ++r) {
    EXPECT_EQ(rows[r][0], std::to_string(r - 1));
    rank_bytes += std::stoull(rows[r][10]);
    share += std::stod(rows[r][11]);
  }
  EXPECT_EQ(rows[5][0], "all");
  EXPECT_EQ(std::stoull(rows[5][10]), rank_bytes);
  EXPECT_NEAR(share, 100.0, 0.01);
  // Heatmap row t, rank r: the value of rank r's own time series at t.
  std::ifstream heatmap(csv + "/cluster-heatmap.csv");
  std::string header;
  std::getline(heatmap, header);
  EXPECT_NE(header.find("rank 3 on "), std::string::npos) << header;
  std::vector<std::vector<std::string>> series(4);
  for (size_t r = 1; r <= 4; ++r) {
    std::ifstream file(csv + "/timeseries-run" + rows[r][2] + ".csv");
    std::string line;
    std::getline(file, line);
    while (std::getline(file, line)) {
      series[r - 1].push_back(CsvCells(line).at(1));  // t,value,...
    }
  }
  size_t t = 0;
  for (std::string line; std::getline(heatmap, line); ++t) {
    const std::vector<std::string> cells = CsvCells(line);
    ASSERT_EQ(cells.size(), 6u) << line;
    for (size_t r = 0; r < 4; ++r) {
      ASSERT_LT(t, series[r].size());
      EXPECT_EQ(cells[2 + r], series[r][t]) << "rank " << r << " at " << t;
    }
  }
  EXPECT_EQ(t, series[0].size());
  std::ifstream md(dir_.File("group.md"));
  const std::string markdown((std::istreambuf_iterator<char>(md)),
                             std::istreambuf_iterator<char>());
  EXPECT_NE(markdown.find("## Cluster: 4 ranks"), std::string::npos);
}

TEST_F(ClusterTest, RanksWithOtherOptionsAreRefusedBeforeAnything) {
  std::vector<std::string> argv =
      Mpirun(1, {"run", "--engine", "null", "--time", "1s", "--bs", "4k"});
  argv.insert(argv.end(),
              {":", "-np", "1", FLASHMARK_BINARY, "run", "--engine", "null",
               "--time", "1s", "--bs", "8k", "--mpi", "--db", Database()});
  const Invocation run = testing::RunProgram(argv, 60);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("rank 1 on "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("runs other options than rank 0"), std::string::npos)
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(Database()));
}

TEST_F(ClusterTest, ATargetRefusedOnOneRankStopsAllBeforeAnyIO) {
  std::filesystem::remove(RankDirectory(2));
  // A file created and removed again would change its directory's time.
  std::vector<std::filesystem::file_time_type> untouched;
  for (int rank : {0, 1, 3}) {
    untouched.push_back(std::filesystem::last_write_time(RankDirectory(rank)));
  }
  const Invocation run = testing::RunProgram(
      Mpirun(4, {"run", dir_.File("d{rank}"), "--size", "8M", "--time", "1s"}),
      60);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("rank 2 on "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("no rank started its IO"), std::string::npos)
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(Database()));
  size_t i = 0;
  for (int rank : {0, 1, 3}) {  // no rank laid out its file set
    EXPECT_TRUE(std::filesystem::is_empty(RankDirectory(rank))) << rank;
    EXPECT_EQ(std::filesystem::last_write_time(RankDirectory(rank)),
              untouched[i++])
        << "rank " << rank << " laid out files";
  }
}

TEST_F(ClusterTest, WithoutALauncherSaysHowToStartOne) {
  const Invocation run = testing::RunFlashmark(
      {"run", "--engine", "null", "--time", "1s", "--mpi"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("not started by mpirun"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("mpirun -np N flashmark run"), std::string::npos);
}

TEST_F(ClusterTest, HostsRunsMpirunForTheUserAndSaysSo) {
  const Invocation run = testing::RunFlashmark(
      {"run", "--hosts", "localhost,localhost", "--engine", "null", "--time",
       "500ms", "--interval", "100ms", "--db", Database()},
      60);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.err.find("running: mpirun "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("-np 2 --host localhost,localhost"), std::string::npos)
      << run.err;
  auto store = RunStore::Open(Database());
  ASSERT_TRUE(store.ok());
  const auto aggregates = Runs(*store, "rank", "all");
  ASSERT_EQ(aggregates.size(), 1u);
  auto aggregate = store->LoadRun(aggregates[0].id, false);
  ASSERT_TRUE(aggregate.ok());
  EXPECT_EQ(aggregate->run.spec.threads, 2);
  EXPECT_EQ(Runs(*store, "group", Tag(*aggregate, "group")).size(), 3u);

  const Invocation both = testing::RunFlashmark(
      {"run", "--hosts", "localhost", "--mpi", "--engine", "null"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("leave out --mpi"), std::string::npos) << both.err;
}

TEST_F(ClusterTest, StonewallStopsEveryRankWhenTheFirstIsDone) {
  // Three ranks at full speed, one niced on these oversubscribed cores:
  // without the stonewall it would run on long after the others.
  const std::vector<std::string> run_args = {
      "run",      "--engine",   "null",  "--io-limit",
      "20000000", "--interval", "100ms", "--stonewall"};
  std::vector<std::string> argv = Mpirun(3, run_args);
  argv.insert(argv.end(),
              {":", "-np", "1", "nice", "-n", "19", FLASHMARK_BINARY});
  argv.insert(argv.end(), run_args.begin(), run_args.end());
  argv.insert(argv.end(), {"--mpi", "--db", Database()});
  const Invocation run = testing::RunProgram(argv, 120);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;

  auto store = RunStore::Open(Database());
  ASSERT_TRUE(store.ok());
  const auto slow = Runs(*store, "rank", "3");
  ASSERT_EQ(slow.size(), 1u);
  auto stopped = store->LoadRun(slow[0].id, false);
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(stopped->run.status, RunStatus::kOk);
  EXPECT_LT(stopped->run.summary.read.ios, 20'000'000u);  // stopped early
  EXPECT_GT(stopped->run.summary.read.ios, 0u);
  uint64_t done = 0;  // the others did their whole share
  for (const std::string rank : {"0", "1", "2"}) {
    auto full = store->LoadRun(Runs(*store, "rank", rank).at(0).id, false);
    ASSERT_TRUE(full.ok());
    done += full->run.summary.read.ios == 20'000'000u ? 1 : 0;
  }
  EXPECT_GE(done, 1u);
  const auto all = store->LoadRun(Runs(*store, "rank", "all").at(0).id, false);
  ASSERT_TRUE(all.ok());
  const std::string& cluster = all->run.environment.cluster;
  const double first = NumberAfter(cluster, "first rank finished at ");
  const double last = NumberAfter(cluster, ", last at ");
  ASSERT_GT(first, 0) << cluster;
  EXPECT_LT(last - first, 1.0) << cluster;

  const Invocation alone =
      testing::RunFlashmark({"run", "--engine", "null", "--stonewall"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--stonewall goes with a run across ranks"),
            std::string::npos)
      << alone.err;
  const Invocation timed = testing::RunProgram(
      Mpirun(1, {"run", "--engine", "null", "--time", "1s", "--stonewall"}));
  EXPECT_EQ(timed.exit_code, 2);
  EXPECT_NE(timed.err.find("--stonewall needs --io-limit or --bytes"),
            std::string::npos)
      << timed.err;
}

// The pid of the rank `rank` of the flashmark processes started on `dir`.
int RankPid(const std::string& dir, int rank) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string command = testing::ReadFile(entry.path() / "cmdline");
    if (command.rfind(FLASHMARK_BINARY, 0) != 0 ||
        command.find(dir) == std::string::npos) {
      continue;
    }
    std::ifstream in(entry.path() / "environ");
    std::string variable;
    while (std::getline(in, variable, '\0')) {
      if (variable == "OMPI_COMM_WORLD_RANK=" + std::to_string(rank)) {
        return std::stoi(name);
      }
    }
  }
  return 0;
}

TEST_F(ClusterTest, UntilSteadyJudgesTheAggregateAndStopsEveryRank) {
  const Invocation run = testing::RunProgram(
      Mpirun(4, {"run", "--engine", "null", "--rate", "2000", "--until-steady",
                 "--steady-round", "500ms", "--interval", "100ms", "--max-time",
                 "30s"}),
      120);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  // Rank 0 says it once, of the aggregate; no rank judged alone.
  const std::string both = run.out + run.err;
  const size_t said = both.find("steady state reached at ");
  ASSERT_NE(said, std::string::npos) << both;
  EXPECT_EQ(both.find("steady state reached at ", said + 1), std::string::npos)
      << both;

  auto store = RunStore::Open(Database());
  ASSERT_TRUE(store.ok());
  auto all = store->LoadRun(Runs(*store, "rank", "all").at(0).id, false);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->run.status, RunStatus::kOk);
  EXPECT_TRUE(all->run.spec.until_steady);
  const double elapsed = all->run.summary.elapsed_seconds;
  EXPECT_LT(elapsed, 10.0);  // far from --max-time: steady stopped it
  for (const std::string rank : {"0", "1", "2", "3"}) {
    auto one = store->LoadRun(Runs(*store, "rank", rank).at(0).id, false);
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one->run.status, RunStatus::kOk);
    // Each stopped within a few intervals of rank 0's verdict.
    EXPECT_NEAR(one->run.summary.elapsed_seconds, elapsed, 0.5)
        << "rank " << rank;
  }
}

// A campaign with [cluster]: each cell a run across ranks, its group of
// runs tagged as the cell's and its aggregate the cell's run.
TEST_F(ClusterTest, ASweepRunsEachCellAcrossRanks) {
  const std::string plan = dir_.File("spread.toml");
  std::ofstream(plan) << "[workload]\nengine = \"null\"\ntime = \"1s\"\n"
                         "interval = \"200ms\"\nrate = 2000\n"
                         "[matrix]\nthreads = [1, 2]\n"
                         "[cluster]\nlauncher = \"mpirun --oversubscribe "
                         "-np 2\"\n"
                         "[analysis]\nwarmup = \"400ms\"\n";
  const Invocation dry =
      testing::RunFlashmark({"sweep", plan, "--dry-run", "--db", Database()});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("every cell across MPI ranks: mpirun "
                         "--oversubscribe -np 2 flashmark run ... --mpi"),
            std::string::npos)
      << dry.out;
  const Invocation sweep = testing::RunProgram(
      {FLASHMARK_BINARY, "sweep", plan, "--db", Database()}, 180);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.out << sweep.err;
  EXPECT_NE(sweep.out.find("running: mpirun --oversubscribe -np 2 "),
            std::string::npos)
      << sweep.out;

  auto store = RunStore::Open(Database());
  ASSERT_TRUE(store.ok());
  const auto aggregates = Runs(*store, "rank", "all");
  ASSERT_EQ(aggregates.size(), 2u);
  for (size_t c = 0; c < 2; ++c) {
    const std::string cell = std::to_string(c + 1);
    EXPECT_EQ(Tag(aggregates[c], "cell"), cell);
    EXPECT_EQ(Tag(aggregates[c], "threads"), cell);
    EXPECT_EQ(aggregates[c].run.spec.threads, 2 * static_cast<int>(c + 1));
    const auto group = Runs(*store, "group", Tag(aggregates[c], "group"));
    EXPECT_EQ(group.size(), 3u);  // two ranks and their aggregate
    for (const StoredRun& run : group) {
      EXPECT_EQ(Tag(run, "campaign"), Tag(aggregates[c], "campaign"));
      EXPECT_EQ(Tag(run, "cell"), cell);
      // The campaign's [analysis], though the ranks stored the runs.
      EXPECT_EQ(run.run.spec.analysis.warmup, "400ms") << "run " << run.id;
    }
  }
  // The cells' runs are the aggregates: the sweep's report reads them.
  const Invocation report = testing::RunFlashmark(
      {"report", "--campaign", Tag(aggregates[0], "campaign"), "--db",
       Database()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("by threads"), std::string::npos) << report.out;
}

TEST_F(ClusterTest, AKilledRankLosesNothingTheOthersMeasured) {
  const std::string out = dir_.File("out"), err = dir_.File("err");
  const int mpirun = testing::StartProgram(
      Mpirun(4, {"run", dir_.File("d{rank}"), "--size", "8M", "--time", "30s",
                 "--interval", "100ms", "--rate", "2000", "--json",
                 dir_.File("rank{rank}.json"), "-q"}),
      out, err);
  // Until the aggregate has intervals, then rank 2 is killed.
  ASSERT_TRUE(testing::WaitFor(
      [&] {
        if (!std::filesystem::exists(Database())) return false;
        auto store = RunStore::Open(Database());
        if (!store.ok()) return false;
        const auto all = Runs(*store, "rank", "all");
        if (all.empty()) return false;
        auto run = store->LoadRun(all[0].id, false);
        return run.ok() && run->run.intervals.size() >= 10;
      },
      60));
  const int victim = RankPid(dir_.path(), 2);
  ASSERT_GT(victim, 0);
  ASSERT_EQ(kill(victim, SIGKILL), 0);
  const int code = testing::WaitFlashmark(mpirun);
  EXPECT_NE(code, 0);

  auto store = RunStore::Open(Database());
  ASSERT_TRUE(store.ok());
  const auto all = Runs(*store, "rank", "all");
  ASSERT_EQ(all.size(), 1u);
  auto total = store->LoadRun(all[0].id);
  ASSERT_TRUE(total.ok());
  EXPECT_EQ(total->run.status, RunStatus::kInterrupted);
  EXPECT_NE(total->run.environment.cluster.find("lost: rank 2 on "),
            std::string::npos)
      << total->run.environment.cluster << testing::ReadFile(out)
      << testing::ReadFile(err);
  // The survivors' runs are stored to their end, interrupted.
  for (const std::string rank : {"0", "1", "3"}) {
    RunFilter filter;
    filter.tags = {{"group", Tag(*total, "group")}, {"rank", rank}};
    auto runs = store->ListRuns(filter);
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 1u) << rank;
    auto run = store->LoadRun(runs->front().id, false);
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->run.status, RunStatus::kInterrupted) << rank;
    EXPECT_GE(run->run.intervals.size(), total->run.intervals.size() - 1)
        << rank;
  }
  // The lost rank kept its own document of what it measured.
  std::ifstream in(dir_.File("rank2.json"));
  auto document = nlohmann::json::parse(in, nullptr, false);
  auto lost = RunFromJson(document);
  ASSERT_TRUE(lost.ok()) << lost.error().message;
  EXPECT_EQ(lost->status, RunStatus::kInterrupted);  // it said "running"
  EXPECT_GT(lost->intervals.size(), 0u);
  // ... which imports into its group.
  const Invocation import = testing::RunFlashmark(
      {"import", "flashmark", dir_.File("rank2.json"), "--db", Database()});
  ASSERT_EQ(import.exit_code, 0) << import.out << import.err;
  RunFilter filter;
  filter.tags = {{"group", Tag(*total, "group")}, {"rank", "2"}};
  auto rank2 = store->ListRuns(filter);
  ASSERT_TRUE(rank2.ok());
  ASSERT_EQ(rank2->size(), 2u);  // what reached rank 0, and its own file
  EXPECT_EQ(rank2->back().labels.source, "flashmark");
  EXPECT_EQ(Tag(rank2->back(), "host"), Tag(rank2->front(), "host"));
  auto imported = store->LoadRun(rank2->back().id, false);
  ASSERT_TRUE(imported.ok());
  EXPECT_EQ(imported->run.intervals.size(), lost->intervals.size());
  EXPECT_EQ(imported->run.status, RunStatus::kInterrupted);
}

}  // namespace
}  // namespace flashmark
