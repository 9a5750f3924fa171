// The documents of `compare --json`, `list --json` and `verify --json`,
// text for text (JsonText as the commands print them): their shape is a
// contract with scripts that read them.
#include <gtest/gtest.h>

#include "common/json_text.h"
#include "document/json_format.h"
#include "report/compare_json.h"
#include "report/console_reporter.h"
#include "report/list_json.h"
#include "report/verify_json.h"

namespace flashmark {
namespace {

using nlohmann::json;

TEST(CompareJson, UnitsWithMediansRatiosCostsAndNullLatencyWithoutHistograms) {
  Comparison comparison;
  comparison.names = {"a", "b"};
  MetricComparison throughput{"throughput",
                              "MiB/s",
                              true,
                              {{10, 9, 11}, {20, 19, 21}},
                              {{1, 1, 1}, {2, 1.5, 2.5}},
                              {false, false}};
  MetricComparison p99{
      "p99 latency",          "ns",         false, {{100, 90, 110}, {0, 0, 0}},
      {{1, 1, 1}, {0, 0, 0}}, {false, true}};
  comparison.metrics = {throughput, p99};
  comparison.costs = {CostFigures{},
                      CostFigures{0.5, 2.0, std::nullopt, "USD"}};
  std::vector<ComparisonUnit> units(2);
  units[0].p99_ns = {100};  // b has no histograms
  const json doc = CompareJson(comparison, units, {{1}, {2, 3}});
  EXPECT_EQ(JsonText(doc, 1),
            "{\n"
            " \"baseline\": \"a\",\n"
            " \"schema\": \"flashmark.compare\",\n"
            " \"schema_version\": 1,\n"
            " \"units\": [\n"
            "  {\n"
            "   \"name\": \"a\",\n"
            "   \"p99 latency\": {\n"
            "    \"median\": 100.0,\n"
            "    \"median_high\": 110.0,\n"
            "    \"median_low\": 90.0,\n"
            "    \"ratio\": 1.0,\n"
            "    \"ratio_high\": 1.0,\n"
            "    \"ratio_low\": 1.0,\n"
            "    \"within_noise\": false\n"
            "   },\n"
            "   \"runs\": [\n"
            "    1\n"
            "   ],\n"
            "   \"throughput\": {\n"
            "    \"median\": 10.0,\n"
            "    \"median_high\": 11.0,\n"
            "    \"median_low\": 9.0,\n"
            "    \"ratio\": 1.0,\n"
            "    \"ratio_high\": 1.0,\n"
            "    \"ratio_low\": 1.0,\n"
            "    \"within_noise\": false\n"
            "   }\n"
            "  },\n"
            "  {\n"
            "   \"currency\": \"USD\",\n"
            "   \"name\": \"b\",\n"
            "   \"p99 latency\": null,\n"
            "   \"price_per_gb\": 0.5,\n"
            "   \"price_per_mibs\": 2.0,\n"
            "   \"runs\": [\n"
            "    2,\n"
            "    3\n"
            "   ],\n"
            "   \"throughput\": {\n"
            "    \"median\": 20.0,\n"
            "    \"median_high\": 21.0,\n"
            "    \"median_low\": 19.0,\n"
            "    \"ratio\": 2.0,\n"
            "    \"ratio_high\": 2.5,\n"
            "    \"ratio_low\": 1.5,\n"
            "    \"within_noise\": false\n"
            "   }\n"
            "  }\n"
            " ]\n"
            "}");
}

TEST(ListJson, OneObjectPerRunWithItsTags) {
  StoredRun stored;
  stored.id = 4;
  stored.labels.label = "baseline";
  stored.labels.tags = {{"device", "nvme0"}, {"price", "100"}};
  stored.run.status = RunStatus::kOk;
  stored.run.start_unix_ns = 10;
  stored.run.end_unix_ns = 20;
  stored.run.command_line = "flashmark run";
  stored.run.summary.read_mibs.median = 1.5;
  stored.run.summary.iops.median = 384;
  stored.run.summary.latency.p99 = 1000;
  stored.run.summary.read.ios = 100;
  Headline headline;
  headline.figure.median = 1.25;
  headline.rule = "median of 10 intervals (0..10 s, one regime)";
  const json doc = ListJson({stored, stored}, {headline, std::nullopt});
  ASSERT_TRUE(doc.is_array());
  ASSERT_EQ(doc.size(), 2u);
  const json& run = doc[0];
  EXPECT_EQ(run.size(), 14u);
  EXPECT_EQ(run["headline"]["metric"], "read_mibs");
  EXPECT_EQ(run["headline"]["median"], 1.25);
  EXPECT_EQ(run["headline"]["rule"], headline.rule);
  EXPECT_TRUE(doc[1]["headline"].is_null());
  EXPECT_EQ(run["id"], 4);
  EXPECT_EQ(run["label"], "baseline");
  EXPECT_EQ(run["status"], "ok");
  EXPECT_EQ(run["source"], "flashmark");
  EXPECT_EQ(run["start_unix_ns"], 10);
  EXPECT_EQ(run["end_unix_ns"], 20);
  EXPECT_EQ(run["workload"], DescribeWorkload(stored.run.spec));
  EXPECT_EQ(run["command_line"], "flashmark run");
  EXPECT_EQ(run["read_mibs_median"], 1.5);
  EXPECT_EQ(run["write_mibs_median"], 0.0);
  EXPECT_EQ(run["iops_median"], 384.0);
  EXPECT_EQ(run["latency_p99_ns"], 1000.0);
  EXPECT_EQ(run["tags"], (json{{"device", "nvme0"}, {"price", "100"}}));
  EXPECT_EQ(JsonText(ListJson({}, {}), 1), "[]");
}

TEST(VerifyJson, TargetAndOutcome) {
  VerifyOutcome outcome;
  outcome.enabled = true;
  outcome.block_bytes = 4096;
  const json doc = VerifyJson("/mnt/x", outcome);
  EXPECT_EQ(doc, (json{{"schema", "flashmark.verify"},
                       {"schema_version", 1},
                       {"target", "/mnt/x"},
                       {"verify", ToJson(outcome)}}));
}

}  // namespace
}  // namespace flashmark
