// Per-interval histograms exported for other tools: fio's own histogram
// log (a real fio 3.33 clat_hist log, tests/fixtures/import) imported and
// exported again comes back bin for bin, line for line; a run's
// HdrHistogram log is read by HdrHistogram's own JavaScript reader in the
// node test tests/node/hdr_log.test.mjs; bad formats are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

std::vector<std::vector<std::string>> CsvRows(const std::string& text) {
  std::vector<std::vector<std::string>> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::istringstream parts(line);
    for (std::string field; std::getline(parts, field, ',');) {
      const size_t start = field.find_first_not_of(' ');
      fields.push_back(start == std::string::npos ? "" : field.substr(start));
    }
    if (!fields.empty()) lines.push_back(std::move(fields));
  }
  return lines;
}

TEST(HistogramLogs, AFioHistogramLogComesBackBinForBin) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  const Invocation imported = RunFlashmark(
      {"import", "fio", ImportFixture("fio-randrw-logs/randrw.json"), "--logs",
       ImportFixture("fio-randrw-logs/randrw"), "--db", db});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const Invocation exported =
      RunFlashmark({"export", "1", "--format", "clat_hist", "--db", db});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  auto ours = CsvRows(exported.out);
  auto fios = CsvRows(
      ReadFile(ImportFixture("fio-randrw-logs/randrw_clat_hist.1.log")));
  ASSERT_EQ(ours.size(), fios.size()) << exported.out.substr(0, 300);
  // fio writes the two directions of an instant in either order.
  const auto by_time_and_direction = [](const auto& a, const auto& b) {
    const long ta = std::lround(std::stod(a[0]) / 1000);
    const long tb = std::lround(std::stod(b[0]) / 1000);
    return ta != tb ? ta < tb : a[1] < b[1];
  };
  std::sort(ours.begin(), ours.end(), by_time_and_direction);
  std::sort(fios.begin(), fios.end(), by_time_and_direction);
  for (size_t k = 0; k < ours.size(); ++k) {
    ASSERT_EQ(ours[k].size(), 3u + 1856) << "line " << k;
    EXPECT_EQ(ours[k][1], fios[k][1]) << "direction, line " << k;
    EXPECT_EQ(ours[k][2], fios[k][2]) << "block size, line " << k;
    // The interval ends where fio's bw log put it, within fio's jitter.
    EXPECT_NEAR(std::stod(ours[k][0]), std::stod(fios[k][0]), 50);
    int differing = 0;
    uint64_t count = 0;
    for (size_t b = 3; b < ours[k].size(); ++b) {
      differing += ours[k][b] != fios[k][b];
      count += std::stoull(ours[k][b]);
    }
    EXPECT_EQ(differing, 0) << "line " << k;
    EXPECT_GT(count, 0u);
  }
}

TEST(HistogramLogs, HdrLogHasAHeaderAndALinePerIntervalAndDirection) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  ASSERT_EQ(
      RunFlashmark({"run", "--engine", "null", "--mode", "randrw", "--time",
                    "1s", "--interval", "250ms", "-q", "--db", db})
          .exit_code,
      0);
  const Invocation exported =
      RunFlashmark({"export", "1", "--format", "hdr", "--db", db});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.out.find("#[Histogram log format version 1.3]\n"),
            std::string::npos);
  EXPECT_NE(exported.out.find("#[StartTime: "), std::string::npos);
  size_t reads = 0, writes = 0;
  std::istringstream in(exported.out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Tag=read,", 0) == 0) ++reads;
    if (line.rfind("Tag=write,", 0) == 0) ++writes;
    if (line.rfind("Tag=", 0) == 0) {
      EXPECT_NE(line.find(",HISTFAAAA"), std::string::npos) << line;
    }
  }
  // One line per interval and direction with IOs: as many as the run's
  // intervals with a read (a write) histogram.
  const Invocation json_export =
      RunFlashmark({"export", "1", "--format", "json", "--db", db});
  ASSERT_EQ(json_export.exit_code, 0) << json_export.err;
  const auto doc = nlohmann::json::parse(json_export.out);
  size_t with_reads = 0, with_writes = 0;
  for (const auto& interval : doc["intervals"]) {
    with_reads += !interval["latency"]["read"]["c"].empty();
    with_writes += !interval["latency"]["write"]["c"].empty();
  }
  EXPECT_GE(reads, 4u);
  EXPECT_EQ(reads, with_reads);
  EXPECT_EQ(writes, with_writes);
}

TEST(HistogramLogs, AnUnknownFormatIsRefused) {
  TempDir dir;
  const Invocation refused = RunFlashmark(
      {"export", "1", "--format", "hdrhistogram", "--db", dir.File("x.db")});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("\"hdrhistogram\" is not an export format"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("clat_hist"), std::string::npos);
}

}  // namespace
}  // namespace flashmark::testing
