// Campaign rounds that stop once steady ([campaign.steady-state]): the
// rounds left after a steady window are skipped, a window that never
// holds runs every round and says how far it was; bad steady-state tables
// refused before anything runs. And bursts (--thinktime-iotime,
// --thinktime): IO only inside the bursts. Diskless (null engine).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "store/campaign_store.h"
#include "stored_cells.h"

namespace flashmark::testing {
namespace {

// Null-engine cells: mode x bs, repeated `repeats` times, steady state
// tracked on the rndwr 4k cell with the given limits.
std::string RoundsCampaign(int repeats, const std::string& steady) {
  return "[campaign]\nname = \"rounds\"\nrepeats = " + std::to_string(repeats) +
         "\n[campaign.steady-state]\n" + steady +
         "\n[workload]\nengine = \"null\"\nsize = \"1G\"\ntime = \"200ms\"\n"
         "interval = \"50ms\"\n[matrix]\nmode = [\"rndrd\", \"rndwr\"]\n"
         "bs = [\"4k\", \"8k\"]\n";
}

TEST(CampaignRounds, SteadyRoundsSkipTheRestAndTheCampaignFinishes) {
  TempDir dir;
  const std::string db = dir.File("r.db");
  std::ofstream(dir.File("c.toml")) << RoundsCampaign(
      6,
      "where = { mode = \"rndwr\", bs = \"4k\" }\nwindow = 2\n"
      "max-excursion = 100\nslope-excursion = 100");
  const Invocation result =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "-q"});
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_NE(result.out.find("rounds: 1 done of at most 6; 1 of 2 rounds "
                            "needed for a window"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("rounds: 2 done of at most 6; steady in rounds "
                            "1-2: average"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("the 16 cells left are skipped"),
            std::string::npos);
  const auto cells = StoredCells(db);
  ASSERT_EQ(cells.size(), 24u);
  for (size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(cells[i].status, i < 8 ? CellStatus::kOk : CellStatus::kSkipped)
        << "cell " << i + 1;
    EXPECT_EQ(cells[i].run_id.has_value(), i < 8);
  }
  EXPECT_NE(result.out.find("campaign 1 finished"), std::string::npos);
  const Invocation campaigns =
      RunFlashmark({"list", "--campaigns", "--db", db, "--json"});
  ASSERT_EQ(campaigns.exit_code, 0) << campaigns.err;
  EXPECT_EQ(nlohmann::json::parse(campaigns.out)[0]["status"], "finished");
}

TEST(CampaignRounds, AWindowThatNeverHoldsRunsEveryRound) {
  TempDir dir;
  const std::string db = dir.File("r.db");
  // A 0.001 % excursion: no two null-engine runs are that close.
  std::ofstream(dir.File("c.toml")) << RoundsCampaign(
      3,
      "where = { mode = \"rndwr\", bs = \"8k\" }\nmetric = \"mibs\"\n"
      "window = 2\nmax-excursion = 0.001");
  const Invocation result =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "-q"});
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  EXPECT_NE(result.out.find("rounds: not steady in rounds 2-3: average"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("MiB/s, excursion"), std::string::npos);
  // The ETA at best (the window of 2 rounds holds at round 2: 8 cells of
  // 200 ms) and at worst (all 3 rounds), before any cell ran; in the last
  // round, one ETA (scaled by how long the cells really took).
  EXPECT_NE(result.out.find("cell 1/12  mode=rndrd bs=4k  (0 of 12 done, "
                            "ETA 1.6 s at best, 2.4 s at worst)"),
            std::string::npos)
      << result.out;
  const size_t last_round = result.out.find("cell 9/12");
  ASSERT_NE(last_round, std::string::npos);
  const std::string line = result.out.substr(
      last_round, result.out.find('\n', last_round) - last_round);
  EXPECT_NE(line.find("(8 of 12 done, ETA "), std::string::npos) << line;
  EXPECT_EQ(line.find("at best"), std::string::npos) << line;
  const auto cells = StoredCells(db);
  ASSERT_EQ(cells.size(), 12u);
  for (const StoredCell& cell : cells) EXPECT_EQ(cell.status, CellStatus::kOk);
}

TEST(CampaignRounds, BadSteadyStateTablesAreRefusedBeforeAnythingRuns) {
  TempDir dir;
  const std::string db = dir.File("r.db");
  struct Case {
    std::string steady;
    int repeats;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"where = { threads = 2 }", 5,
       "where: \"threads\" is not a matrix parameter"},
      {"where = { mode = \"rndwr\" }", 5,
       "where matches 2 cells of a round, not one"},
      {"where = { mode = \"rndwr\", bs = \"16k\" }", 5,
       "where: bs = \"16k\" matches no cell"},
      {"where = { mode = \"rndwr\", bs = \"4k\" }", 3,
       "repeats = 3 rounds cannot hold a window of 5"},
      {"where = { mode = \"rndwr\", bs = \"4k\" }\nmetric = \"p99\"", 5,
       "metric: unknown metric \"p99\""},
      {"where = { mode = \"rndwr\", bs = \"4k\" }\nwindow = 1", 5, "window:"},
      {"where = { mode = \"rndwr\", bs = \"4k\" }\nmax-excursion = 0", 5,
       "max-excursion: expected a percentage"},
      {"metric = \"iops\"", 5, "steady-state: where is missing"},
      {"where = { mode = \"rndwr\", bs = \"4k\" }\nwindows = 5", 5, "windows"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.steady);
    std::ofstream(dir.File("c.toml")) << RoundsCampaign(c.repeats, c.steady);
    const Invocation result =
        RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "-q"});
    EXPECT_EQ(result.exit_code, 2) << result.out;
    EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
  }
  // A shuffled plan has no rounds.
  std::ofstream(dir.File("c.toml"))
      << "[campaign]\nrepeats = 5\norder = \"shuffled\"\n"
         "[campaign.steady-state]\nwhere = { bs = \"4k\" }\n"
         "[workload]\nengine = \"null\"\n[matrix]\nbs = [\"4k\", \"8k\"]\n";
  const Invocation shuffled =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db});
  EXPECT_EQ(shuffled.exit_code, 2);
  EXPECT_NE(shuffled.err.find("the rounds need order = \"as-written\""),
            std::string::npos)
      << shuffled.err;
  EXPECT_FALSE(std::ifstream(db).good()) << "nothing ran, nothing stored";
}

TEST(Bursts, IoOnlyInsideTheBurstsFromTheRunsStart) {
  TempDir dir;
  const std::string out = dir.File("run.json");
  const std::string db = dir.File("b.db");
  const Invocation result =
      RunFlashmark({"run", "--engine", "null", "--time", "2s", "--interval",
                    "250ms", "--thinktime-iotime", "500ms", "--thinktime",
                    "500ms", "--db", db, "--json", out});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("bursts of 500 ms, 500 ms apart"),
            std::string::npos)
      << result.out;
  const auto doc = nlohmann::json::parse(ReadFile(out));
  EXPECT_EQ(doc["config"]["thinktime_seconds"], 0.5);
  EXPECT_EQ(doc["config"]["thinktime_iotime_seconds"], 0.5);
  std::vector<uint64_t> ios;
  for (const auto& interval : doc["intervals"]) {
    if (!interval.value("partial", false))
      ios.push_back(interval["read"]["ios"]);
  }
  ASSERT_EQ(ios.size(), 8u);
  // Intervals 0-1 and 4-5 lie in bursts, 2-3 and 6-7 between them. The
  // sampler's boundaries may lag a busy machine's clock by milliseconds
  // (the next burst's first IOs), no more.
  const uint64_t least_burst = std::min({ios[0], ios[1], ios[4], ios[5]});
  EXPECT_GT(least_burst, 10000u);
  for (size_t pause : {2, 3, 6, 7}) {
    EXPECT_LT(ios[pause], least_burst / 20) << "interval " << pause;
  }
  // The command that repeats the run keeps the bursts.
  const Invocation show = RunFlashmark({"show", "1", "--db", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("--thinktime-iotime 500ms --thinktime 500ms"),
            std::string::npos)
      << show.out;
}

TEST(Bursts, BothOptionsOrNeither) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--thinktime", "1s"},
           {"--thinktime-iotime", "1s"},
           {"--thinktime", "0s", "--thinktime-iotime", "1s"},
           {"--thinktime", "1s", "--thinktime-iotime", "x"}}) {
    std::vector<std::string> command{"run", "--engine", "null", "--no-db"};
    command.insert(command.end(), args.begin(), args.end());
    const Invocation result = RunFlashmark(command);
    EXPECT_EQ(result.exit_code, 2) << args[0];
    EXPECT_NE(result.err.find("--thinktime"), std::string::npos) << result.err;
  }
}

}  // namespace
}  // namespace flashmark::testing
