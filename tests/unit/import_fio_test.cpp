// The fio importer against real fio 3.33 output (tests/fixtures/import,
// made by make-fixtures.sh): totals, IOPS and MiB/s equal fio's, JSON+
// buckets give fio's percentiles, logs give the intervals, and bad files
// are refused naming the file and line or JSON path.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "store/fio_import.h"

namespace flashmark {
namespace {

using nlohmann::json;

std::string FixturePath(const std::string& name) {
  return std::string(FLASHMARK_FIXTURES) + "/import/" + name;
}

ImportFile FioFixture(const std::string& name) {
  std::ifstream in(FixturePath(name));
  std::ostringstream text;
  text << in.rdbuf();
  return {name, text.str(), 0};
}

double Figure(const ToolReport& report, const std::string& name) {
  for (const auto& figure : report.figures) {
    if (figure.name == name) return figure.value;
  }
  ADD_FAILURE() << "no figure " << name;
  return NAN;
}

// Our percentiles from the imported buckets against fio's own: the same
// fio bucket, reported within our histogram's 0.1 %.
void ExpectFioPercentiles(const LatencySummary& ours, const json& percentiles) {
  const std::map<std::string, double> ours_by_key = {
      {"50.000000", ours.p50},  {"90.000000", ours.p90},
      {"95.000000", ours.p95},  {"99.000000", ours.p99},
      {"99.900000", ours.p999}, {"99.990000", ours.p9999}};
  for (const auto& [key, value] : ours_by_key) {
    const double fio = percentiles.at(key).get<double>();
    EXPECT_NEAR(value, fio, fio * 0.002) << "clat p" << key;
  }
}

TEST(ImportFio, JsonPlusTwoJobsAreTwoRunsWithFioPercentiles) {
  const ImportFile file = FioFixture("fio-jsonplus-2jobs.json");
  auto runs = ParseFioJson(file);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 2u);
  const json doc = json::parse(file.text);
  for (size_t j = 0; j < 2; ++j) {
    const StoredRun& stored = (*runs)[j];
    const RunResult& run = stored.run;
    const json& read = doc["jobs"][j]["read"];
    EXPECT_EQ(stored.labels.label, "randread." + std::to_string(j + 1));
    EXPECT_EQ(stored.labels.source, "fio");
    EXPECT_EQ(run.tool_version, "fio-3.33");
    ASSERT_EQ(run.intervals.size(), 1u);  // no logs: the whole runtime
    EXPECT_FALSE(run.intervals[0].partial);
    EXPECT_EQ(run.intervals[0].end_ns,
              read["runtime"].get<uint64_t>() * 1000000);
    const RunSummary& s = run.summary;
    EXPECT_EQ(s.read.ios, read["total_ios"].get<uint64_t>());
    EXPECT_EQ(s.read.bytes, read["io_bytes"].get<uint64_t>());
    EXPECT_EQ(s.write.ios, 0u);
    EXPECT_NEAR(s.iops.median, read["iops"].get<double>(), 1e-6);
    EXPECT_NEAR(s.read_mibs.median * 1048576, read["bw_bytes"].get<double>(),
                1.0);
    EXPECT_EQ(s.read_latency.count, read["clat_ns"]["N"].get<uint64_t>());
    ExpectFioPercentiles(s.read_latency, read["clat_ns"]["percentile"]);
    EXPECT_NEAR(s.read_latency.mean, read["clat_ns"]["mean"].get<double>(),
                read["clat_ns"]["mean"].get<double>() * 0.01);
    EXPECT_DOUBLE_EQ(Figure(run.imported, "read IOPS"),
                     read["iops"].get<double>());
    EXPECT_DOUBLE_EQ(Figure(run.imported, "read clat p99"),
                     read["clat_ns"]["percentile"]["99.000000"].get<double>());
    EXPECT_EQ(run.spec.mode, IoMode::kRndRd);
    EXPECT_EQ(run.spec.engine, "psync");
    EXPECT_EQ(run.spec.threads, 1);
    EXPECT_EQ(run.spec.block_sizes.at(0).bytes, 4096u);
    EXPECT_EQ(run.spec.time, std::chrono::seconds(3));
    EXPECT_NE(run.command_line.find("--output-format=json+"),
              std::string::npos);
    EXPECT_EQ(run.end_unix_ns, doc["timestamp_ms"].get<int64_t>() * 1000000);
  }
}

TEST(ImportFio, GroupReportingIsOneRunWithSteadyState) {
  const ImportFile file = FioFixture("fio-group-ss.json");
  auto runs = ParseFioJson(file);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 1u);
  const RunResult& run = (*runs)[0].run;
  const json write = json::parse(file.text)["jobs"][0]["write"];
  EXPECT_EQ((*runs)[0].labels.label, "randwrite");
  EXPECT_EQ(run.spec.threads, 2);
  EXPECT_EQ(run.spec.iodepth, 8);
  EXPECT_EQ(run.spec.engine, "libaio");
  EXPECT_TRUE(run.spec.direct);
  EXPECT_EQ(run.spec.mode, IoMode::kRndWr);
  EXPECT_EQ(run.spec.block_sizes.at(0).bytes, 16384u);
  EXPECT_EQ(run.summary.write.ios, write["total_ios"].get<uint64_t>());
  EXPECT_NEAR(run.summary.iops.median, write["iops"].get<double>(), 1e-6);
  EXPECT_NEAR(run.summary.write_mibs.median * 1048576,
              write["bw_bytes"].get<double>(), 1.0);
  EXPECT_EQ(run.summary.latency.count,
            0u);  // plain JSON: no buckets, no percentiles
  EXPECT_DOUBLE_EQ(Figure(run.imported, "steadystate attained"), 1);
  EXPECT_NEAR(Figure(run.imported, "steadystate criterion"), 4.976241, 1e-9);
  bool noted = false;
  for (const auto& note : run.imported.notes) {
    noted |= note.find("fio steady state iops:50") != std::string::npos;
  }
  EXPECT_TRUE(noted);
}

// The numbers of an averaged fio log: (time, value) per direction.
std::map<int, std::vector<std::pair<double, double>>> LogValues(
    const std::string& name) {
  std::ifstream in(FixturePath(name));
  std::map<int, std::vector<std::pair<double, double>>> values;
  double time, value;
  int direction;
  char comma;
  std::string rest;
  while (in >> time >> comma >> value >> comma >> direction) {
    std::getline(in, rest);
    values[direction].push_back({time, value});
  }
  return values;
}

TEST(ImportFio, LogsBecomeTheIntervals) {
  const ImportFile file = FioFixture("fio-randrw-logs/randrw.json");
  const std::string prefix = FixturePath("fio-randrw-logs/randrw");
  auto runs = ParseFioJson(file, [&prefix](int first, int count, bool whole) {
    return ReadFioLogs(prefix, first, count, whole);
  });
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 1u);
  const RunResult& run = (*runs)[0].run;
  const auto bw = LogValues("fio-randrw-logs/randrw_bw.1.log");
  const auto iops = LogValues("fio-randrw-logs/randrw_iops.1.log");
  const auto clat = LogValues("fio-randrw-logs/randrw_clat.1.log");
  ASSERT_EQ(bw.at(0).size(), 3u);
  ASSERT_EQ(run.intervals.size(), 4u);  // three logged seconds and the rest
  for (size_t k = 0; k < 3; ++k) {
    const IntervalSample& s = run.intervals[k];
    EXPECT_FALSE(s.partial);
    EXPECT_EQ(s.end_ns, static_cast<uint64_t>(bw.at(0)[k].first * 1e6));
    // KiB/s, to the byte counted over the interval
    const double byte = 1.0 / 1024 / s.seconds();
    EXPECT_NEAR(s.ReadMiBs() * 1024, bw.at(0)[k].second, byte / 2 + 1e-9);
    EXPECT_NEAR(s.WriteMiBs() * 1024, bw.at(1)[k].second, byte / 2 + 1e-9);
    EXPECT_NEAR(s.read.ios / s.seconds(), iops.at(0)[k].second,
                0.5 / s.seconds());
    EXPECT_NEAR(s.write.ios / s.seconds(), iops.at(1)[k].second,
                0.5 / s.seconds());
    EXPECT_GT(s.read_latency.count(), 0u);
    EXPECT_GT(s.write_latency.count(), 0u);
  }
  EXPECT_EQ(run.spec.interval, std::chrono::seconds(1));
  // The clat_hist lines (1003, 2003, 3003 ms): each in the nearest interval.
  std::ifstream hist(FixturePath("fio-randrw-logs/randrw_clat_hist.1.log"));
  std::string line;
  std::map<int, std::vector<uint64_t>> hist_counts;
  while (std::getline(hist, line)) {
    std::istringstream fields(line);
    double time, direction, bs, count;
    char comma;
    fields >> time >> comma >> direction >> comma >> bs;
    uint64_t total = 0;
    while (fields >> comma >> count) total += static_cast<uint64_t>(count);
    hist_counts[static_cast<int>(direction)].push_back(total);
  }
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(run.intervals[k].read_latency.count(), hist_counts.at(0).at(k));
    EXPECT_EQ(run.intervals[k].write_latency.count(), hist_counts.at(1).at(k));
  }
  // Mean clat per interval, from the clat log.
  const ToolSeries* read_clat = nullptr;
  for (const auto& series : run.imported.series) {
    if (series.name == "read clat mean") read_clat = &series;
  }
  ASSERT_NE(read_clat, nullptr);
  ASSERT_EQ(read_clat->values.size(), run.intervals.size());
  for (size_t k = 0; k < 3; ++k)
    EXPECT_EQ(read_clat->values[k], clat.at(0)[k].second);
  // Totals are fio's: the partial rest holds what the logs did not cover.
  const json job = json::parse(file.text)["jobs"][0];
  const IntervalSample& rest = run.intervals[3];
  EXPECT_TRUE(rest.partial);
  EXPECT_EQ(rest.end_ns, job["read"]["runtime"].get<uint64_t>() * 1000000);
  EXPECT_EQ(run.summary.read.ios, job["read"]["total_ios"].get<uint64_t>());
  EXPECT_EQ(run.summary.read.bytes, job["read"]["io_bytes"].get<uint64_t>());
  EXPECT_EQ(run.summary.write.ios, job["write"]["total_ios"].get<uint64_t>());
  EXPECT_EQ(run.summary.write.bytes, job["write"]["io_bytes"].get<uint64_t>());
  EXPECT_EQ(run.spec.mode, IoMode::kRndRw);
  EXPECT_DOUBLE_EQ(run.spec.read_fraction, 0.7);
  EXPECT_EQ(run.spec.iodepth, 4);

  // The same JSON without its logs: one interval, fio's totals.
  auto alone = ParseFioJson(file);
  ASSERT_TRUE(alone.ok());
  ASSERT_EQ((*alone)[0].run.intervals.size(), 1u);
  EXPECT_NEAR((*alone)[0].run.summary.read_mibs.median * 1048576,
              job["read"]["bw_bytes"].get<double>(), 1.0);
}

TEST(ImportFio, FioBinsRoundTrip) {
  EXPECT_EQ(FioBinValue(0), 0u);
  EXPECT_EQ(FioBinValue(127), 127u);
  EXPECT_EQ(FioBinValue(128), 129u);  // fio's plat_idx_to_val
  for (size_t i = 0; i < kFioBins; ++i) {
    ASSERT_EQ(FioBinIndex(FioBinValue(i)), static_cast<int64_t>(i)) << i;
    if (i > 0) {
      ASSERT_GT(FioBinValue(i), FioBinValue(i - 1));
    }
  }
  EXPECT_EQ(FioBinIndex(29313), -1);
  EXPECT_EQ(FioBinIndex(29312), FioBinIndex(FioBinValue(FioBinIndex(29312))));
}

std::string FioErrorOf(const std::string& text, const FioLogReader& logs = {}) {
  auto runs = ParseFioJson({"bad.json", text, 0}, logs);
  EXPECT_FALSE(runs.ok());
  if (runs.ok()) return "";
  EXPECT_EQ(runs.error().exit_code, kUsageExit);
  return runs.error().message;
}

TEST(ImportFio, BadFilesNameTheFileAndLineOrPath) {
  const std::string good = FioFixture("fio-randrw-logs/randrw.json").text;
  // Truncated after line 100: the error names that last line.
  size_t cut = 0;
  for (int line = 0; line < 100; ++line) cut = good.find('\n', cut) + 1;
  const std::string truncated = FioErrorOf(good.substr(0, cut));
  EXPECT_EQ(truncated.rfind("bad.json:100: not valid JSON", 0), 0u)
      << truncated;
  EXPECT_NE(truncated.find("truncated"), std::string::npos) << truncated;
  // Garbled in the middle (line 36 holds the read IOPS).
  std::string garbled = good;
  garbled.replace(garbled.find("\"iops\" : 15284.178955"), 21,
                  "\"iops\" : \"fast\"");
  EXPECT_EQ(FioErrorOf(garbled),
            "bad.json: JSON path /jobs/0/read/iops: \"fast\" is not a number");
  std::string broken = good;
  broken.replace(broken.find("\"iops\" : 15284.178955"), 21,
                 "\"iops\" : 15284.1$8");
  EXPECT_EQ(FioErrorOf(broken).rfind("bad.json:36: not valid JSON", 0), 0u)
      << FioErrorOf(broken);
  // Other versions and other files.
  std::string old = good;
  old.replace(old.find("fio-3.33"), 8, "fio-2.21");
  EXPECT_NE(FioErrorOf(old).find("/fio version: \"fio-2.21\" is not a version"),
            std::string::npos)
      << FioErrorOf(old);
  EXPECT_NE(FioErrorOf("{\"jobs\": []}").find("/fio version: missing"),
            std::string::npos);
  EXPECT_NE(FioErrorOf(FioFixture("sysbench-rndwr-async.txt").text)
                .find("no JSON document"),
            std::string::npos);
  // Values of types or sizes fio never writes (found by fuzzing's kind).
  EXPECT_EQ(FioErrorOf(R"({"fio version": "fio-3.33", "jobs": [3]})"),
            "bad.json: JSON path /jobs/0/jobname: missing");
  EXPECT_EQ(
      FioErrorOf(R"({"fio version": "fio-3.33", "jobs": [{"jobname": 5}]})"),
      "bad.json: JSON path /jobs/0/jobname: 5 is not a string");
  std::string huge = good;
  huge.replace(huge.find("\"total_ios\" : 61152"), 19, "\"total_ios\" : 1e30");
  EXPECT_EQ(FioErrorOf(huge),
            "bad.json: JSON path /jobs/0/read/total_ios: 1e+30 is not a count");
  // A number beyond double's range (the fuzzer's crash-ff2c099f...).
  std::string overflow = good;
  overflow.replace(overflow.find("\"iops\" : 15284.178955"), 21,
                   "\"iops\" : 17960084E2690");
  EXPECT_EQ(FioErrorOf(overflow),
            "bad.json:36: not valid JSON (number overflow parsing "
            "'17960084E2690')");
  std::string many_jobs = good;
  many_jobs.replace(many_jobs.find("\"runtime\" : \"4\""), 15,
                    "\"numjobs\" : \"99999999999999\", \"runtime\" : \"4\"");
  EXPECT_TRUE(ParseFioJson({"ok.json", many_jobs, 0}).ok());
  // Text before the JSON is skipped.
  EXPECT_TRUE(ParseFioJson({"ok.json", "note: a fio note\n" + good, 0}).ok());
  // Logs that are not there.
  const std::string missing =
      FioErrorOf(good, [](int first, int count, bool whole) {
        return ReadFioLogs("/nonexistent/randrw", first, count, whole);
      });
  EXPECT_NE(missing.find("no /nonexistent/randrw_bw.1.log"), std::string::npos)
      << missing;
}

}  // namespace
}  // namespace flashmark
