// The text views a storage engineer reads and pastes (issue 15): units and
// enough digits in report's key figures, the source of each run in `list`,
// one warm-up reason, aligned sweep tables, and a block device's
// configuration without a file set that does not exist.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

const std::string kFixtures =
    std::string(FLASHMARK_SOURCE_DIR) + "/tests/fixtures/import/";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool IsNumber(const std::string& text) {
  return !text.empty() &&
         text.find_first_not_of("0123456789.") == std::string::npos;
}
bool IsLatencyUnit(const std::string& text) {
  return text == "ns" || text == "us" || text == "ms";
}

// "  1  median 19.5 ns  box 19.0 ns..20.0 ns  whiskers ...": every value
// with its latency unit. (No std::regex: GCC 12 warns inside it under the
// sanitizers' -O1, and -Werror makes that an error.)
bool IsGroupLineWithLatencyUnits(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string word; in >> word;) w.push_back(word);
  if (w.size() < 9 || (w[0] != "1" && w[0] != "2")) return false;
  const size_t dots = w[6].find("..");
  return w[1] == "median" && IsNumber(w[2]) && IsLatencyUnit(w[3]) &&
         w[4] == "box" && IsNumber(w[5]) && dots != std::string::npos &&
         IsLatencyUnit(w[6].substr(0, dots)) &&
         IsNumber(w[6].substr(dots + 2)) && IsLatencyUnit(w[7]) &&
         w[8] == "whiskers";
}

TEST(ReportViews, KeyFiguresCarryUnitsAndSignificantDigits) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  for (const std::string threads : {"1", "2"}) {
    const Invocation run = RunFlashmark(
        {"run", "--engine", "null", "--time", "2s", "--interval", "100ms",
         "--threads", threads, "-q", db, "--tag", "threads=" + threads});
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const Invocation report =
      RunFlashmark({"report", "1", "2", db, "--by", "threads", "--metric",
                    "p99", "--warmup", "1s"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  // Each group line gives every latency its unit (the null engine's are
  // nanoseconds: "0.0 ms" would say nothing).
  int groups = 0;
  for (const std::string& line : Lines(report.out)) {
    if (line.find(" median ") == std::string::npos ||
        line.find(" box ") == std::string::npos) {
      continue;
    }
    ++groups;
    EXPECT_TRUE(IsGroupLineWithLatencyUnits(line)) << line;
    EXPECT_EQ(line.find(" 0.0 "), std::string::npos) << line;
  }
  EXPECT_EQ(groups, 2) << report.out;
  // One reason for a fixed warm-up, not "fixed: 1 s (--warmup))".
  EXPECT_NE(report.out.find("warm-up 1 s (set with --warmup)"),
            std::string::npos)
      << report.out;
  EXPECT_EQ(report.out.find("))"), std::string::npos) << report.out;
  // The run lines: the metric's unit after p25..p75, p99 in its own unit.
  EXPECT_NE(report.out.find(" ns, IOPS "), std::string::npos) << report.out;
  EXPECT_NE(report.out.find(" ns; warm-up"), std::string::npos) << report.out;
  EXPECT_EQ(report.out.find("e-0"), std::string::npos) << report.out;
}

TEST(ReportViews, ListShowsWhereEachRunCameFrom) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "1s", "-q", db})
                .exit_code,
            0);
  ASSERT_EQ(RunFlashmark({"import", "sysbench",
                          kFixtures + "sysbench-rndwr-async.txt", db})
                .exit_code,
            0);
  const Invocation list = RunFlashmark({"list", db});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const std::vector<std::string> lines = Lines(list.out);
  ASSERT_GE(lines.size(), 3u) << list.out;
  const size_t source = lines[0].find("SOURCE");
  ASSERT_NE(source, std::string::npos) << list.out;
  EXPECT_EQ(lines[1].substr(source, 9), "flashmark") << list.out;
  EXPECT_EQ(lines[2].substr(source, 8), "sysbench") << list.out;
}

TEST(ReportViews, SweepTableStaysAlignedWithLongParameters) {
  TempDir dir;
  std::ofstream(dir.File("c.toml"))
      << "[campaign]\nname = \"wide\"\n[workload]\nengine = \"null\"\n"
         "time = \"1s\"\nmode = \"rndrd\"\n[matrix]\n"
         "bs = [\"4k/60:64k/40\", \"16k\"]\n"
         "distribution = [\"normal:10\", \"uniform\"]\n";
  const Invocation sweep = RunFlashmark(
      {"sweep", dir.File("c.toml"), "--db", dir.File("runs.db"), "-q"});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  const std::vector<std::string> lines = Lines(sweep.out);
  size_t header = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("parameters") != std::string::npos &&
        lines[i].find("headline median") != std::string::npos) {
      header = i;
    }
  }
  ASSERT_LT(header + 4, lines.size()) << sweep.out;
  const size_t status = lines[header].find("status");
  const size_t iops = lines[header].find("IOPS") + 4;  // right-aligned
  for (size_t i = header + 1; i <= header + 4; ++i) {
    EXPECT_EQ(lines[i].substr(status, 2), "ok") << sweep.out;
    EXPECT_EQ(lines[i].find(" ok "), status - 1) << sweep.out;
    EXPECT_NE(lines[i][iops - 1], ' ') << lines[i] << "\n" << sweep.out;
  }
  EXPECT_NE(sweep.out.find("bs=4k/60:64k/40 distribution=normal:10  ok"),
            std::string::npos)
      << sweep.out;
}

TEST(ReportViews, ImportsShowTheToolsOwnCpuFigures) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  ASSERT_EQ(
      RunFlashmark({"import", "fio", kFixtures + "fio-jsonplus-2jobs.json", db})
          .exit_code,
      0);
  ASSERT_EQ(RunFlashmark({"import", "sysbench",
                          kFixtures + "sysbench-rndwr-async.txt", db})
                .exit_code,
            0);
  // fio printed usr_cpu 4.4 % and sys_cpu 26.53 % over 3.001 s.
  const Invocation fio = RunFlashmark({"show", "1", db});
  EXPECT_NE(fio.out.find("CPU user 0.13 s, system 0.80 s"), std::string::npos)
      << fio.out;
  const Invocation shown = RunFlashmark({"show", "1", db, "--json"});
  const auto summary = nlohmann::json::parse(shown.out)["summary"];
  EXPECT_NEAR(summary["cpu_user_seconds"].get<double>(), 0.044 * 3.001, 1e-3);
  EXPECT_NEAR(summary["cpu_system_seconds"].get<double>(), 0.26533 * 3.001,
              1e-3);
  const Invocation sysbench = RunFlashmark({"show", "3", db});
  EXPECT_NE(sysbench.out.find("CPU not reported by sysbench"),
            std::string::npos)
      << sysbench.out;
  EXPECT_EQ(sysbench.out.find("CPU user 0.00 s"), std::string::npos);
}

TEST(ReportViews, ShowAndListCampaignsCarryTheResetSteps) {
  TempDir dir;
  std::ofstream(dir.File("c.toml"))
      << "[campaign]\nname = \"r\"\n[workload]\nengine = \"null\"\n"
         "time = \"1s\"\n[matrix]\nthreads = [1, 2]\n"
         "[[reset]]\nstep = \"exec\"\n"
         "argv = [\"/bin/sh\", \"-c\", \"echo prepared the device\"]\n";
  const std::string db = dir.File("runs.db");
  ASSERT_EQ(
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db, "-q"}).exit_code,
      0);
  const Invocation show = RunFlashmark({"show", "2", "--db", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("reset    before this run (campaign 1, cell 2):"),
            std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("    /bin/sh -c 'echo prepared the device'  -> exit "
                          "status 0, "),
            std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("      | prepared the device\n"), std::string::npos)
      << show.out;
  const Invocation shown = RunFlashmark({"show", "2", "--db", db, "--json"});
  const auto cell = nlohmann::json::parse(shown.out)["sweep_cell"];
  EXPECT_EQ(cell["campaign"], 1);
  EXPECT_EQ(cell["cell"], 2);
  EXPECT_EQ(cell["reset"][0]["step"], "exec");
  EXPECT_EQ(cell["reset"][0]["exit_status"], 0);
  EXPECT_EQ(cell["reset"][0]["output"], "prepared the device\n");
  const Invocation campaigns =
      RunFlashmark({"list", "--campaigns", "--db", db, "--json"});
  const auto listed = nlohmann::json::parse(campaigns.out);
  ASSERT_EQ(listed[0]["cell_list"].size(), 2u) << campaigns.out;
  EXPECT_EQ(listed[0]["cell_list"][1]["parameters"]["threads"], "2");
  EXPECT_EQ(listed[0]["cell_list"][1]["run"], 2);
  EXPECT_EQ(listed[0]["cell_list"][1]["reset"][0]["argv"][0], "/bin/sh");
  // A run outside a sweep has no reset record.
  ASSERT_EQ(RunFlashmark(
                {"run", "--engine", "null", "--time", "1s", "-q", "--db", db})
                .exit_code,
            0);
  EXPECT_EQ(RunFlashmark({"show", "3", "--db", db}).out.find("reset "),
            std::string::npos);
}

TEST(ReportViews, BlockDeviceConfigurationHasNoFileSet) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  const std::string db = "--db=" + dir.File("runs.db");
  const Invocation run = RunFlashmark({"run", loop.device(), "--mode", "rndrd",
                                       "--direct", "--time", "1s", "-q", db});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Invocation report =
      RunFlashmark({"report", "1", db, "--md", dir.File("r.md")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string md = ReadFile(dir.File("r.md"));
  EXPECT_EQ(md.find("file set"), std::string::npos) << md;
  EXPECT_NE(md.find("offset range"), std::string::npos) << md;
  EXPECT_NE(md.find("64 MiB"), std::string::npos) << md;
}

}  // namespace
}  // namespace flashmark::testing
