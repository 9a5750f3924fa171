// --price (issue 15): what a device costs, given to run, import and
// compare, becomes cost per GB, per MiB/s and per kIOPS in compare and
// report; a bad amount is exit 2 with nothing stored.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

const std::string kSysbench = std::string(FLASHMARK_SOURCE_DIR) +
                              "/tests/fixtures/import/sysbench-rndwr-async.txt";

TEST(Price, RunAndImportFileItAsThePriceTag) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "1s", "-q", db,
                          "--tag", "price=1", "--price", "350.5"})
                .exit_code,
            0);
  ASSERT_EQ(RunFlashmark({"import", "sysbench", kSysbench, db, "--price", "99"})
                .exit_code,
            0);
  const json runs = json::parse(RunFlashmark({"list", db, "--json"}).out);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["tags"]["price"], "350.5") << "--price wins over the tag";
  EXPECT_EQ(runs[1]["tags"]["price"], "99");
  for (const std::string bad : {"abc", "-3", "nan", "", "350 "}) {
    const Invocation run = RunFlashmark(
        {"run", "--engine", "null", "--time", "1s", "-q", db, "--price", bad});
    EXPECT_EQ(run.exit_code, 2) << bad;
    EXPECT_NE(run.err.find("is not a price"), std::string::npos) << run.err;
    const Invocation import = RunFlashmark(
        {"import", "sysbench", kSysbench, db, "--again", "--price", bad});
    EXPECT_EQ(import.exit_code, 2) << bad;
  }
  EXPECT_EQ(json::parse(RunFlashmark({"list", db, "--json"}).out).size(), 2u)
      << "a bad --price stored a run";
}

TEST(Price, CompareAndReportGiveTheCosts) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "2s", "-q", db,
                          "--label", "a", "--price", "USD 100", "--tag",
                          "capacity=100G"})
                .exit_code,
            0);
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "2s", "-q", db,
                          "--label", "b", "--tag", "capacity=200G"})
                .exit_code,
            0);
  // b has no price tag: --price gives it one, by its label or its run id.
  for (const std::string name : {"b", "2"}) {
    const Invocation compare = RunFlashmark(
        {"compare", "1", "2", db, "--price", name + "=400", "--json"});
    ASSERT_EQ(compare.exit_code, 0) << compare.err;
    const json units = json::parse(compare.out)["units"];
    ASSERT_EQ(units.size(), 2u) << compare.out;
    // Per GB of 10^9 bytes, capacities as vendors write them (decimal):
    // 100 / 100 GB and 400 / 200 GB; a's currency kept.
    EXPECT_NEAR(units[0]["price_per_gb"].get<double>(), 1.0, 1e-9);
    EXPECT_NEAR(units[1]["price_per_gb"].get<double>(), 2.0, 1e-9);
    EXPECT_EQ(units[0]["currency"], "USD");
    EXPECT_EQ(units[1]["currency"], "");
    EXPECT_TRUE(units[1]["price_per_mibs"].is_number());
    EXPECT_TRUE(units[1]["price_per_kiops"].is_number());
  }
  const Invocation text = RunFlashmark({"compare", "1", "2", db});
  EXPECT_NE(text.out.find("cost (price)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("USD 1.00"), std::string::npos) << text.out;
  const Invocation report = RunFlashmark({"report", "1", "2", db});
  EXPECT_NE(report.out.find("a costs USD 1.00 per GB, "), std::string::npos)
      << report.out;
  for (const std::string bad : {"b", "b=x", "=3", "zz=3"}) {
    const Invocation compare =
        RunFlashmark({"compare", "1", "2", db, "--price", bad});
    EXPECT_EQ(compare.exit_code, 2) << bad;
    EXPECT_NE(compare.err.find("--price"), std::string::npos) << compare.err;
  }
}

}  // namespace
}  // namespace flashmark::testing
