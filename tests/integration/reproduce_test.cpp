// What `show` prints to repeat a run (issue 15), run as printed, gives the
// same workload: for an import, the nearest flashmark command (a TARGET
// placeholder, the tool's file count, no invented seed or interval); for
// a sweep cell on several targets, the per-target runs as they ran.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// The lines of `show` after "reproduce with" / "the same workload with
// flashmark", unindented.
std::vector<std::string> ReproduceLines(const std::string& show) {
  std::vector<std::string> lines;
  std::istringstream in(show);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "reproduce with" ||
        line == "the same workload with flashmark") {
      inside = true;
      continue;
    }
    if (inside && line.rfind("  ", 0) == 0) lines.push_back(line.substr(2));
  }
  return lines;
}

// Runs a printed command (shell words) with the binary under test.
int RunPrinted(std::string command, const std::string& db) {
  EXPECT_EQ(command.rfind("flashmark run ", 0), 0u) << command;
  command.replace(0, 9, std::string(FLASHMARK_BINARY));
  std::string output;
  const int status =
      RunTool({"sh", "-c", command + " -q --db '" + db + "'"}, &output);
  EXPECT_EQ(status, 0) << command << "\n" << output;
  return status;
}

json Config(const std::string& db, int id) {
  const Invocation show =
      RunFlashmark({"show", std::to_string(id), "--db", db, "--json"});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  return json::parse(show.out)["config"];
}

TEST(Reproduce, AnImportGivesTheNearestFlashmarkCommand) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  ASSERT_EQ(RunFlashmark({"import", "sysbench",
                          std::string(FLASHMARK_SOURCE_DIR) +
                              "/tests/fixtures/import/sysbench-rndwr-async.txt",
                          "--db", db})
                .exit_code,
            0);
  const Invocation show = RunFlashmark({"show", "1", "--db", db});
  const std::vector<std::string> lines = ReproduceLines(show.out);
  ASSERT_EQ(lines.size(), 1u) << show.out;
  const std::string& command = lines[0];
  EXPECT_EQ(command.rfind("flashmark run TARGET --mode rndwr", 0), 0u)
      << command;
  EXPECT_NE(command.find(" --file-num 4 "), std::string::npos) << command;
  EXPECT_EQ(command.find("--seed"), std::string::npos) << command;
  EXPECT_EQ(command.find("--interval"), std::string::npos) << command;
  EXPECT_NE(show.out.find("command  sysbench fileio --threads=1 --file-num=4"),
            std::string::npos)
      << "the tool's own command line is shown too";
  // Run as printed on a directory: the same workload as the import's.
  std::string on_dir = command;
  on_dir.replace(on_dir.find("TARGET"), 6, dir.File("set"));
  on_dir.replace(on_dir.find(" --time 5s"), 10, " --time 1s");  // shorter
  std::filesystem::create_directory(dir.File("set"));
  ASSERT_EQ(
      RunPrinted(on_dir + " --no-db --json " + dir.File("again.json"), db), 0);
  std::ifstream again(dir.File("again.json"));
  const json rerun = json::parse(again)["config"];
  const json imported = Config(db, 1);
  for (const char* key : {"mode", "block_sizes", "engine", "threads", "iodepth",
                          "direct", "fsync_every", "file_num", "size_bytes"}) {
    EXPECT_EQ(rerun[key], imported[key]) << key;
  }
}

TEST(Reproduce, AMultiTargetCellPrintsItsRunsPerTarget) {
  TempDir dir;
  std::filesystem::create_directory(dir.File("a"));
  std::filesystem::create_directory(dir.File("b"));
  std::ofstream(dir.File("c.toml"))
      << "[campaign]\nname = \"two\"\n[workload]\nengine = \"psync\"\n"
         "mode = \"rndrd\"\nsize = \"8M\"\nfile-num = 2\nbs = \"4k\"\n"
         "time = \"1s\"\nthreads = 2\n[targets]\npaths = [\""
      << dir.File("a") << "\", \"" << dir.File("b") << "\"]\n";
  const std::string db = dir.File("runs.db");
  const Invocation sweep =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "-q"});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.out << sweep.err;
  const json runs =
      json::parse(RunFlashmark({"list", "--db", db, "--json"}).out);
  ASSERT_EQ(runs.size(), 3u);  // part a, part b, part=all
  int aggregate = 0;
  for (const auto& run : runs) {
    if (run["tags"]["part"] == "all") aggregate = run["id"].get<int>();
  }
  ASSERT_GT(aggregate, 0);
  const Invocation show =
      RunFlashmark({"show", std::to_string(aggregate), "--db", db});
  const std::vector<std::string> lines = ReproduceLines(show.out);
  ASSERT_EQ(lines.size(), 5u) << show.out;
  EXPECT_EQ(lines[0].rfind("# ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(" sweep " + dir.File("c.toml")), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("cell 1: one run per target, at once"),
            std::string::npos);
  EXPECT_EQ(lines[3], "wait");
  EXPECT_EQ(lines[4],
            "# or the whole campaign, from its file as stored: flashmark show "
            "--campaign 1 > campaign.toml && flashmark sweep campaign.toml");
  // Each line repeats its target's run: the target, 2 threads, its seed.
  for (int part = 0; part < 2; ++part) {
    std::string command = lines[1 + part];
    ASSERT_EQ(command.substr(command.size() - 2), " &") << command;
    command.resize(command.size() - 2);
    const std::string target = dir.File(part == 0 ? "a" : "b");
    EXPECT_EQ(command.rfind("flashmark run " + target + " ", 0), 0u) << command;
    EXPECT_NE(command.find(" --threads 2 "), std::string::npos) << command;
    int id = 0;  // the parts run at once: either may be stored first
    for (const auto& run : runs) {
      if (run["tags"]["part"] == target) id = run["id"].get<int>();
    }
    ASSERT_GT(id, 0) << target;
    const json original = Config(db, id);
    ASSERT_EQ(RunPrinted(command + " --no-db --json " + dir.File("p.json"), db),
              0);
    std::ifstream again(dir.File("p.json"));
    const json rerun = json::parse(again)["config"];
    for (const char* key :
         {"mode", "threads", "seed", "size_bytes", "file_num", "targets"}) {
      EXPECT_EQ(rerun[key], original[key]) << key << " of part " << part;
    }
  }
}

}  // namespace
}  // namespace flashmark::testing
