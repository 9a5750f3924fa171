// --by NAME in report and compare (issue 15): a tag, else a run parameter
// (threads, iodepth, bs, size, mode, engine, target, tool...); runs of
// different tools are never pooled into one group, and the report draws
// them side by side (one line per tool against the parameter).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// The report data embedded in an HTML report.
json ReportData(const std::string& html) {
  const std::string start =
      "<script type=\"application/json\" id=\"report-data\">";
  const size_t begin = html.find(start);
  EXPECT_NE(begin, std::string::npos);
  const size_t end = html.find("</script>", begin);
  return json::parse(
      html.substr(begin + start.size(), end - begin - start.size()));
}

class GroupBy : public ::testing::Test {
 protected:
  void SetUp() override {
    // Runs 1, 2: flashmark at 1 and 8 threads (no tags); run 3: sysbench
    // at 8 threads.
    for (const std::string threads : {"1", "8"}) {
      const Invocation run =
          RunFlashmark({"run", "--engine", "null", "--time", "2s", "-q", db_,
                        "--threads", threads});
      ASSERT_EQ(run.exit_code, 0) << run.err;
    }
    const Invocation imported =
        RunFlashmark({"import", "sysbench",
                      std::string(FLASHMARK_SOURCE_DIR) +
                          "/tests/fixtures/import/sysbench-rndrd-8threads.txt",
                      db_});
    ASSERT_EQ(imported.exit_code, 0) << imported.err;
  }
  TempDir dir_;
  std::string db_ = "--db=" + dir_.File("runs.db");
};

TEST_F(GroupBy, AParameterGroupsRunsWithoutATag) {
  const Invocation report =
      RunFlashmark({"report", "1", "2", db_, "--by", "threads", "--html",
                    dir_.File("r.html")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json groups = ReportData(ReadFile(dir_.File("r.html")))["groups"];
  EXPECT_EQ(groups["by"], "threads");
  EXPECT_TRUE(groups["numeric"].get<bool>());
  ASSERT_EQ(groups["items"].size(), 2u);
  EXPECT_EQ(groups["items"][0]["name"], "1");
  EXPECT_EQ(groups["items"][1]["value"], 8);
  EXPECT_TRUE(groups["items"][1]["tool"].is_null()) << "one tool";
  // Grouped by what they share, the two runs would pool two workloads
  // (1 and 8 threads) into one group: refused, like with like.
  for (const std::string by : {"engine", "mode", "bs", "size", "tool"}) {
    const Invocation other =
        RunFlashmark({"report", "1", "2", db_, "--by", by});
    EXPECT_EQ(other.exit_code, 2) << by << ": " << other.out;
    EXPECT_NE(other.err.find("differ in threads (1, 8)"), std::string::npos)
        << by << ": " << other.err;
    EXPECT_NE(other.err.find("group by threads"), std::string::npos)
        << other.err;
  }
  const Invocation size = RunFlashmark({"report", "1", db_, "--by", "size"});
  EXPECT_NE(size.out.find("2 GiB"), std::string::npos) << size.out;
  const Invocation bad =
      RunFlashmark({"report", "1", "2", db_, "--by", "colour"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("no run parameter is called so"), std::string::npos)
      << bad.err;
  EXPECT_NE(bad.err.find("threads, iodepth, bs"), std::string::npos);
}

TEST_F(GroupBy, ToolsAreNeverPooled) {
  const Invocation report =
      RunFlashmark({"report", "1", "2", "3", db_, "--by", "threads", "--html",
                    dir_.File("r.html")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json groups = ReportData(ReadFile(dir_.File("r.html")))["groups"];
  ASSERT_EQ(groups["items"].size(), 3u) << groups.dump();
  EXPECT_EQ(groups["items"][0]["name"], "1 (flashmark)");
  EXPECT_EQ(groups["items"][1]["name"], "8 (flashmark)");
  EXPECT_EQ(groups["items"][2]["name"], "8 (sysbench)");
  EXPECT_EQ(groups["items"][2]["tool"], "sysbench");
  EXPECT_EQ(groups["items"][2]["value"], 8);
  EXPECT_EQ(groups["items"][2]["runs"], json::array({3}));
  // compare keeps them apart too.
  const Invocation compare =
      RunFlashmark({"compare", "2", "3", db_, "--by", "threads", "--json"});
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  const json units = json::parse(compare.out)["units"];
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0]["name"], "8 (flashmark)");
  EXPECT_EQ(units[1]["name"], "8 (sysbench)");
}

}  // namespace
}  // namespace flashmark::testing
