// One rule, one figure (issue 13): a run's headline reads the same in
// every command (show, list, analyze, compare, report, export), each says
// that the run changed regime and which rule gave the figure; only like is
// compared with like; a window with no interval left is an error. The
// runs are sysbench traces with a known truth, imported as a user would.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "analysis/metric.h"
#include "binary_runner.h"
#include "report/headline_text.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// A sysbench fileio log of `seconds` 1 s intervals, MiB/s from `level`
// with 3 % noise, as reads or as writes.
std::string SysbenchTrace(int seconds, const std::function<double(int)>& level,
                          bool reads, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> noise(-0.03, 0.03);
  std::string text =
      "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\n"
      "Running the test with following options:\nNumber of threads: 1\n"
      "Report intermediate results every 1 second(s)\n\n"
      "Extra file open flags: directio\n4 files, 16MiB each\n64MiB total file "
      "size\n"
      "Block size 16KiB\nUsing asynchronous I/O mode\n";
  text += reads ? "Doing random read test\n" : "Doing random write test\n";
  text += "Initializing worker threads...\n\nThreads started!\n\n";
  for (int t = 1; t <= seconds; ++t) {
    const double mibs = level(t) * (1 + noise(random));
    text += reads
                ? fmt::format(
                      "[ {}s ] reads: {:.2f} MiB/s writes: 0.00 MiB/s fsyncs: "
                      "0.00/s latency (ms,95%): 0.050\n",
                      t, mibs)
                : fmt::format(
                      "[ {}s ] reads: 0.00 MiB/s writes: {:.2f} MiB/s fsyncs: "
                      "0.00/s latency (ms,95%): 0.050\n",
                      t, mibs);
  }
  text += fmt::format(
      "\nFile operations:\n    reads/s:                      {}\n"
      "    writes/s:                     {}\n    fsyncs/s:                     "
      "0.00\n\n"
      "Throughput:\n    read, MiB/s:                  {}\n"
      "    written, MiB/s:               {}\n",
      reads ? "14433.22" : "0.00", reads ? "0.00" : "14433.22",
      reads ? "225.52" : "0.00", reads ? "0.00" : "225.52");
  text += fmt::format(
      "\nGeneral statistics:\n    total time:                          "
      "{}.0004s\n"
      "    total number of events:              1000\n\n"
      "Latency (ms):\n         min:                                    0.00\n"
      "         avg:                                    0.07\n"
      "         max:                                   13.56\n"
      "         95th percentile:                        0.06\n"
      "         sum:                                 4941.68\n\n"
      "Threads fairness:\n    events (avg/stddev):           75085.0000/0.00\n"
      "    execution time (avg/stddev):   4.9417/0.00\n",
      seconds);
  return text;
}

class HeadlineEverywhere : public ::testing::Test {
 protected:
  void SetUp() override {
    // Run 1: 700 MiB/s for 80 s, then a competing job: 25 MiB/s (-96 %).
    Import(SysbenchTrace(
               160, [](int t) { return t <= 80 ? 700.0 : 25.0; }, false, 1),
           "cliff", "device=a");
    // Run 2: another device, flat 350 MiB/s of random writes.
    Import(SysbenchTrace(
               160, [](int) { return 350.0; }, false, 2),
           "flat", "device=b");
    // Run 3: random reads.
    Import(SysbenchTrace(
               160, [](int) { return 500.0; }, true, 3),
           "reads", "device=c");
  }

  void Import(const std::string& text, const std::string& name,
              const std::string& tag) {
    const std::string path = dir_.File(name + ".txt");
    std::ofstream(path) << text;
    const Invocation imported =
        RunFlashmark({"import", "sysbench", path, "--tag", tag, "--db", db()});
    ASSERT_EQ(imported.exit_code, 0) << imported.err;
  }

  std::string db() const { return dir_.File("runs.db"); }

  Invocation Flashmark(std::vector<std::string> args) {
    args.push_back("--db");
    args.push_back(db());
    return RunFlashmark(args);
  }

  TempDir dir_;
};

TEST_F(HeadlineEverywhere, EveryCommandPrintsTheSameFigureAndTheChange) {
  const Invocation analyzed = Flashmark({"analyze", "1", "--json"});
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
  const json headline = json::parse(analyzed.out)["headline"];
  const double median = headline["median"].get<double>();
  // The figure is the final regime's, not the whole run's (~360).
  EXPECT_NEAR(median, 25, 1.5);
  EXPECT_GT(headline["whole_run_median"].get<double>(), 300);
  ASSERT_EQ(headline["changes"].size(), 1u);
  const std::string change = headline["changes"][0].get<std::string>();
  EXPECT_NE(change.find("write throughput changed at t=80 s"),
            std::string::npos)
      << change;
  const MetricInfo info = DescribeMetric(Metric::kWriteMibs);
  const std::string shown = MetricValueText(median, info);

  // analyze (text), show and the run summary they share.
  const Invocation analyze_text = Flashmark({"analyze", "1"});
  EXPECT_NE(analyze_text.out.find("headline: median " + shown + " MiB/s"),
            std::string::npos)
      << analyze_text.out;
  const Invocation show = Flashmark({"show", "1"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("headline: median " + shown + " MiB/s"),
            std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find(change), std::string::npos) << show.out;
  EXPECT_NE(show.out.find(
                "warning: the write throughput changed once during the run"),
            std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("rule: median of"), std::string::npos) << show.out;

  // list: the same figure, marked as changed, and the rule under the table.
  const Invocation list = Flashmark({"list"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("write " + shown + " MiB/s (1 change)"),
            std::string::npos)
      << list.out;
  EXPECT_NE(list.out.find("medians are each run's headline"), std::string::npos)
      << list.out;
  const Invocation list_json = Flashmark({"list", "--json"});
  ASSERT_EQ(list_json.exit_code, 0) << list_json.err;
  EXPECT_DOUBLE_EQ(
      json::parse(list_json.out)[0]["headline"]["median"].get<double>(),
      median);

  // export: JSON and the CSV's comment lines.
  const Invocation exported = Flashmark({"export", "1", "--format", "json"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_DOUBLE_EQ(
      json::parse(exported.out)["headline"]["median"].get<double>(), median);
  const Invocation csv = Flashmark({"export", "1", "--format", "csv"});
  EXPECT_NE(csv.out.find(fmt::format("# headline_median: {:.3f}\n", median)),
            std::string::npos)
      << csv.out.substr(0, 600);

  // report: the key figures and its data files.
  const Invocation report = Flashmark({"report", "1"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("median " + shown + " MiB/s"), std::string::npos)
      << report.out;
  EXPECT_NE(report.out.find(change), std::string::npos) << report.out;
  // Imported without histograms: no empty latency chart, and why.
  EXPECT_NE(
      report.out.find(
          "note: no latency distribution and no latency axis: run 1 "
          "(imported from sysbench) recorded no per-IO latency histograms"),
      std::string::npos)
      << report.out;
  // The report takes analyze's settings, checked alike.
  const Invocation tuned =
      Flashmark({"report", "1", "--round", "10s", "--min-segment", "20s"});
  EXPECT_EQ(tuned.exit_code, 0) << tuned.err;
  const Invocation bad_round = Flashmark({"report", "1", "--round", "0s"});
  EXPECT_EQ(bad_round.exit_code, 2);
  EXPECT_NE(bad_round.err.find("--round"), std::string::npos) << bad_round.err;
  const Invocation report_md =
      Flashmark({"report", "1", "--md", dir_.File("r.md")});
  ASSERT_EQ(report_md.exit_code, 0) << report_md.err;
  const std::string md = ReadFile(dir_.File("r.md"));
  EXPECT_NE(md.find("median " + shown + " MiB/s"), std::string::npos) << md;
  EXPECT_NE(md.find("Headline: median of"), std::string::npos) << md;
  EXPECT_EQ(md.find("e+0"), std::string::npos) << "no exponents: " << md;
  // One steady-state verdict, in the runs table's words: the headline's.
  const std::string verdict =
      json::parse(exported.out)["headline"]["verdict"].get<std::string>();
  const std::string words = verdict == "steady" ? "): steady;"
                            : verdict == "not_steady"
                                ? "): **not steady**;"
                                : "): too short to judge;";
  EXPECT_NE(md.find("Steady state (SNIA PTS, rounds of"), std::string::npos);
  EXPECT_NE(md.find(words), std::string::npos) << verdict << "\n" << md;
  EXPECT_EQ(md.find("not reached"), std::string::npos) << md;

  // compare: run 1's figure over the same window, and its change said.
  const Invocation compared = Flashmark({"compare", "2", "1", "--json"});
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  const json units = json::parse(compared.out)["units"];
  ASSERT_EQ(units.size(), 2u);
  EXPECT_DOUBLE_EQ(units[1]["throughput"]["median"].get<double>(), median)
      << units.dump();
  const Invocation compared_text = Flashmark({"compare", "2", "1"});
  EXPECT_NE(compared_text.out.find("run 1: " + change +
                                   "; its figure is the final regime's"),
            std::string::npos)
      << compared_text.out;
}

TEST_F(HeadlineEverywhere, OnlyLikeIsComparedWithLike) {
  const Invocation compared = Flashmark({"compare", "1", "3"});
  EXPECT_EQ(compared.exit_code, 2);
  EXPECT_NE(
      compared.err.find("run 1 measures write throughput, run 3 measures read "
                        "throughput"),
      std::string::npos)
      << compared.err;
  EXPECT_NE(Flashmark({"compare", "3", "1", "2", "--by", "device"}).exit_code,
            0);

  // The report draws them side by side but gives no ratio, and says why.
  const Invocation report =
      Flashmark({"report", "1", "3", "--csv", dir_.File("csv")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const Invocation key_figures = Flashmark({"report", "1", "3"});
  EXPECT_NE(key_figures.out.find(
                "note: not compared: run 1 measures write throughput"),
            std::string::npos)
      << key_figures.out;
  EXPECT_EQ(key_figures.out.find(" ran "), std::string::npos)
      << key_figures.out;
  // Writes with writes are compared.
  const Invocation writes = Flashmark({"report", "2", "1"});
  EXPECT_NE(writes.out.find("ran"), std::string::npos) << writes.out;
}

TEST_F(HeadlineEverywhere, AWarmupLongerThanTheRunIsAnErrorNeverAZero) {
  for (const std::string command : {"analyze", "report", "compare"}) {
    std::vector<std::string> args = {command, "1", "--warmup", "1000s"};
    if (command == "compare") args.insert(args.begin() + 2, "2");
    if (command == "report")
      args.insert(args.end(), {"--csv", dir_.File("none")});
    const Invocation result = Flashmark(args);
    EXPECT_EQ(result.exit_code, 2)
        << command << ": " << result.out << result.err;
    EXPECT_EQ(result.out.find("0.0 MiB/s"), std::string::npos) << command;
  }
  EXPECT_FALSE(std::filesystem::exists(dir_.File("none")))
      << "report wrote its CSV";
}

}  // namespace
}  // namespace flashmark::testing
