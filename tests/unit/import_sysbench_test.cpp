// The sysbench fileio importer against real sysbench 1.0.20 output
// (tests/fixtures/import, made by make-fixtures.sh): interval values equal
// the file's lines, the summary equals what sysbench printed within its
// rounding, and bad files are refused naming the file and line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "model/io_pattern.h"
#include "store/sysbench_import.h"

namespace flashmark {
namespace {

ImportFile SysbenchFixture(const std::string& name) {
  const std::string path = std::string(FLASHMARK_FIXTURES) + "/import/" + name;
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return {name, text.str(), 1'800'000'000'000'000'000};
}

double SysbenchFigure(const ToolReport& report, const std::string& name) {
  for (const auto& figure : report.figures) {
    if (figure.name == name) return figure.value;
  }
  ADD_FAILURE() << "no figure " << name;
  return NAN;
}

// sysbench prints 2 decimals; a count derived from a rate over the total
// time is within half an IO of the true count.
void ExpectRate(double ours, double printed, double seconds) {
  EXPECT_NEAR(ours, printed, 0.005 + 0.5 / seconds + 1e-9) << printed;
}

TEST(ImportSysbench, AsyncRandomWriteIntervalsAndSummary) {
  auto stored =
      ParseSysbenchOutput(SysbenchFixture("sysbench-rndwr-async.txt"));
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  const RunResult& run = stored->run;
  EXPECT_EQ(stored->labels.source, "sysbench");
  EXPECT_EQ(stored->labels.label, "sysbench-rndwr-async");
  EXPECT_EQ(stored->labels.source_hash.size(), 64u);
  EXPECT_EQ(run.tool_version, "sysbench 1.0.20");
  EXPECT_EQ(run.status, RunStatus::kOk);
  // sysbench writes one buffer per thread again and again.
  EXPECT_TRUE(run.spec.shared_buffer);
  EXPECT_NE(WriteDataText(run.spec.data, run.spec.shared_buffer)
                .find("--shared-buffer, as sysbench does"),
            std::string::npos);

  // [ 1s ] reads: 0.00 MiB/s writes: 227.81 MiB/s fsyncs: 583.20/s latency
  // (ms,95%): 0.087
  const double writes[] = {227.81, 236.07, 234.38, 221.89, 206.28};
  const double fsyncs[] = {583.20, 608.35, 596.00, 568.03, 530.07};
  const double p95[] = {0.087, 0.056, 0.048, 0.050, 0.053};
  ASSERT_EQ(run.intervals.size(), 6u);  // five lines and the rest of 5.0014 s
  for (size_t i = 0; i < 5; ++i) {
    const IntervalSample& s = run.intervals[i];
    EXPECT_FALSE(s.partial);
    EXPECT_EQ(s.start_ns, i * 1'000'000'000ull);
    EXPECT_NEAR(s.WriteMiBs(), writes[i], 1e-6);
    EXPECT_EQ(s.ReadMiBs(), 0);
    EXPECT_EQ(s.fsyncs, static_cast<uint64_t>(std::llround(fsyncs[i])));
    EXPECT_NEAR(s.write.ios, s.write.bytes / 16384.0, 0.5);
    EXPECT_TRUE(s.write_latency.empty());  // sysbench has no histogram
    EXPECT_DOUBLE_EQ(run.imported.series.at(0).values[i], p95[i]);
  }
  EXPECT_TRUE(run.intervals[5].partial);
  EXPECT_EQ(run.intervals[5].end_ns, 5'001'400'000ull);
  EXPECT_EQ(run.imported.series.at(0).name, "latency p95");
  EXPECT_TRUE(std::isnan(run.imported.series.at(0).values[5]));

  // File operations: writes/s 14433.22, fsyncs/s 577.53; written 225.52 MiB/s
  const RunSummary& s = run.summary;
  EXPECT_NEAR(s.elapsed_seconds, 5.0014, 1e-9);
  ExpectRate(s.write.ios / s.elapsed_seconds, 14433.22, s.elapsed_seconds);
  ExpectRate(s.fsyncs / s.elapsed_seconds, 577.53, s.elapsed_seconds);
  EXPECT_NEAR(s.write.bytes / 1048576.0 / s.elapsed_seconds, 225.52,
              0.005 + 0.5 * 16384 / 1048576.0 / s.elapsed_seconds);
  EXPECT_EQ(s.read.ios, 0u);
  EXPECT_EQ(s.intervals_used,
            5u);  // the partial rest is left out of the series
  EXPECT_NEAR(s.write_mibs.median, 227.81, 1e-6);
  EXPECT_EQ(s.latency.count, 0u);  // no invented percentiles
  EXPECT_DOUBLE_EQ(SysbenchFigure(run.imported, "latency p95"), 0.06);
  EXPECT_DOUBLE_EQ(SysbenchFigure(run.imported, "latency max"), 13.56);
  EXPECT_DOUBLE_EQ(SysbenchFigure(run.imported, "events"), 75085);

  const JobSpec& spec = run.spec;
  EXPECT_EQ(spec.mode, IoMode::kRndWr);
  EXPECT_EQ(spec.block_sizes.at(0).bytes, 16384u);
  EXPECT_EQ(spec.threads, 1);
  EXPECT_EQ(spec.engine, "libaio");
  EXPECT_TRUE(spec.direct);
  EXPECT_EQ(spec.file_num, 4);
  EXPECT_EQ(spec.size.bytes, 64ull << 20);
  EXPECT_EQ(spec.fsync_every, 100u);
  EXPECT_TRUE(spec.fsync_end);
  EXPECT_EQ(spec.interval, std::chrono::seconds(1));
  EXPECT_EQ(run.start_unix_ns, run.end_unix_ns - 5'001'400'000);
  EXPECT_NE(run.command_line.find("--file-io-mode=async"), std::string::npos)
      << run.command_line;
  EXPECT_NE(run.command_line.find("--file-extra-flags=direct"),
            std::string::npos);
}

TEST(ImportSysbench, SyncRandomReadWithEightThreads) {
  auto stored =
      ParseSysbenchOutput(SysbenchFixture("sysbench-rndrd-8threads.txt"));
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  const RunResult& run = stored->run;
  const double reads[] = {4744.29, 6278.94, 5220.55, 3281.84, 2619.87};
  ASSERT_GE(run.intervals.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(run.intervals[i].ReadMiBs(), reads[i], 1e-6);
    EXPECT_EQ(run.intervals[i].write.bytes, 0u);
  }
  EXPECT_EQ(run.spec.mode, IoMode::kRndRd);
  EXPECT_EQ(run.spec.threads, 8);
  EXPECT_EQ(run.spec.engine, "psync");
  EXPECT_FALSE(run.spec.direct);
  const RunSummary& s = run.summary;
  ExpectRate(s.read.ios / s.elapsed_seconds, 283525.76, s.elapsed_seconds);
  EXPECT_NEAR(s.read.bytes / 1048576.0 / s.elapsed_seconds, 4430.09,
              0.005 + 0.5 * 16384 / 1048576.0 / s.elapsed_seconds);
  EXPECT_NEAR(s.read_mibs.median, 4744.29, 1e-6);
  EXPECT_DOUBLE_EQ(SysbenchFigure(run.imported, "events per thread avg"),
                   177282.75);
}

TEST(ImportSysbench, SummaryOnlyOutputIsOneInterval) {
  auto stored =
      ParseSysbenchOutput(SysbenchFixture("sysbench-rndrw-summary.txt"));
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  const RunResult& run = stored->run;
  ASSERT_EQ(run.intervals.size(), 1u);
  EXPECT_FALSE(run.intervals[0].partial);
  EXPECT_EQ(run.intervals[0].end_ns, 3'016'100'000ull);
  EXPECT_EQ(run.spec.interval, std::chrono::nanoseconds(3'016'100'000));
  EXPECT_EQ(run.spec.mode, IoMode::kRndRw);
  EXPECT_DOUBLE_EQ(run.spec.read_fraction, 0.6);
  EXPECT_EQ(run.spec.block_sizes.at(0).bytes, 4096u);
  EXPECT_TRUE(run.imported.series.empty());
  const RunSummary& s = run.summary;
  EXPECT_EQ(s.intervals_used, 1u);
  ExpectRate(s.read.ios / s.elapsed_seconds, 5488.75, s.elapsed_seconds);
  ExpectRate(s.write.ios / s.elapsed_seconds, 3659.16, s.elapsed_seconds);
  ExpectRate(s.fsyncs / s.elapsed_seconds, 366.25, s.elapsed_seconds);
  const double mib_per_io = 4096 / 1048576.0;
  EXPECT_NEAR(s.read_mibs.median, 21.44,
              0.005 + 0.5 * mib_per_io / s.elapsed_seconds);
  EXPECT_NEAR(s.write_mibs.median, 14.29,
              0.005 + 0.5 * mib_per_io / s.elapsed_seconds);
}

// The error for `text` under the name "bad.txt".
std::string SysbenchErrorOf(const std::string& text) {
  auto stored = ParseSysbenchOutput({"bad.txt", text, 0});
  EXPECT_FALSE(stored.ok());
  if (stored.ok()) return "";
  EXPECT_EQ(stored.error().exit_code, kUsageExit);
  EXPECT_FALSE(stored.error().hint.empty());
  return stored.error().message;
}

TEST(ImportSysbench, BadFilesNameTheFileAndLine) {
  const std::string good = SysbenchFixture("sysbench-rndwr-async.txt").text;
  // Cut in the middle of the third interval line (line 25).
  const size_t third = good.find("[ 3s ]");
  ASSERT_NE(third, std::string::npos);
  EXPECT_EQ(SysbenchErrorOf(good.substr(0, third + 20))
                .rfind("bad.txt:25: not a complete", 0),
            0u)
      << SysbenchErrorOf(good.substr(0, third + 20));
  // Cut before the summary.
  const std::string no_summary = good.substr(0, good.find("File operations:"));
  EXPECT_NE(SysbenchErrorOf(no_summary).find("truncated"), std::string::npos)
      << SysbenchErrorOf(no_summary);
  // A garbled summary value.
  std::string garbled = good;
  garbled.replace(garbled.find("14433.22"), 8, "14x33.22");
  EXPECT_NE(SysbenchErrorOf(garbled).find("\"14x33.22\" is not a number"),
            std::string::npos)
      << SysbenchErrorOf(garbled);
  // Garbage in the middle.
  std::string noise = good;
  noise.insert(noise.find("Threads started!"), "\x01\x02 garbage here\n");
  EXPECT_EQ(SysbenchErrorOf(noise).rfind("bad.txt:21: unexpected line", 0), 0u)
      << SysbenchErrorOf(noise);
  // Numbers no sysbench prints.
  std::string threads = good;
  threads.replace(threads.find("Number of threads: 1"), 20,
                  "Number of threads: 1e30");
  EXPECT_NE(SysbenchErrorOf(threads).find("the option header is garbled"),
            std::string::npos)
      << SysbenchErrorOf(threads);
  // Another version, another tool, nothing.
  std::string newer = good;
  newer.replace(0, 15, "sysbench 1.1.0");
  EXPECT_EQ(SysbenchErrorOf(newer).rfind(
                "bad.txt:1: sysbench 1.1.0 is not a version", 0),
            0u)
      << SysbenchErrorOf(newer);
  EXPECT_EQ(SysbenchErrorOf("{\"fio version\" : \"fio-3.33\"}\n")
                .rfind("bad.txt:1: not sysbench", 0),
            0u);
  EXPECT_NE(SysbenchErrorOf("").find("empty"), std::string::npos);
}

// The line (from 1) of `text` where `needle` first occurs.
size_t LineOf(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return 1 +
         static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

// `text` with the first `from` replaced by `to`.
std::string Replaced(std::string text, const std::string& from,
                     const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Issue 11, finding 14: "every 0 second(s)" was imported (exit 0) with
// intervals of no length, on which analyze, report and compare never
// ended. A report interval that is not a positive number of seconds is
// refused at its line.
TEST(ImportSysbench, NonPositiveReportIntervalIsRefusedAtItsLine) {
  const std::string good = SysbenchFixture("sysbench-rndwr-async.txt").text;
  const std::string line = "Report intermediate results every 1 second(s)";
  const std::string where = fmt::format("bad.txt:{}: ", LineOf(good, line));
  for (const char* bad : {"0", "-1", "0.0", "1e300", "x"}) {
    const std::string text = Replaced(
        good, line,
        fmt::format("Report intermediate results every {} second(s)", bad));
    const std::string error = SysbenchErrorOf(text);
    EXPECT_EQ(error.rfind(where + "report interval \"" + bad + "\"", 0), 0u)
        << error;
  }
  // No interval at all: the whole run, from a total time of 0, is refused
  // too (the one interval would have no length).
  std::string summary_only = SysbenchFixture("sysbench-rndrw-summary.txt").text;
  const size_t total = summary_only.find("total time:");
  ASSERT_NE(total, std::string::npos);
  const size_t end = summary_only.find('\n', total);
  summary_only.replace(total, end - total, "total time: 0.0000s");
  EXPECT_EQ(SysbenchErrorOf(summary_only)
                .rfind(fmt::format("bad.txt:{}: total time \"0.0000s\"",
                                   LineOf(summary_only, "total time:")),
                       0),
            0u)
      << SysbenchErrorOf(summary_only);
}

// Issue 11, finding 20: header and summary errors named the file's last
// line; they name the offending one.
TEST(ImportSysbench, HeaderAndSummaryErrorsNameTheOffendingLine) {
  const std::string good = SysbenchFixture("sysbench-rndwr-async.txt").text;
  struct Case {
    std::string from, to, expected;
  };
  const Case cases[] = {
      {"Number of threads: 1", "Number of threads: 1e30",
       "the option header is garbled: threads \"1e30\""},
      {"Block size 16KiB", "Block size 0KiB",
       "the option header is garbled: file-block-size \"0KiB\""},
      {"64MiB total file size", "64XB total file size",
       "the option header is garbled: file-total-size"},
      {"Doing random write test", "Doing random dance test",
       "the option header is garbled: file-test-mode \"random dance\""},
      {"14433.22", "14x33.22", "summary \"File operations/writes/s\""},
      {"75085.0000/0.00", "75085.0000", "summary \"Threads fairness/events"},
  };
  for (const Case& c : cases) {
    const std::string text = Replaced(good, c.from, c.to);
    const std::string expected =
        fmt::format("bad.txt:{}: {}", LineOf(text, c.to), c.expected);
    EXPECT_EQ(SysbenchErrorOf(text).rfind(expected, 0), 0u)
        << SysbenchErrorOf(text) << "\nexpected: " << expected;
  }
  // A missing header line: the header's end (its last option line).
  const std::string no_threads = Replaced(good, "Number of threads: 1\n", "");
  EXPECT_EQ(SysbenchErrorOf(no_threads)
                .rfind(fmt::format("bad.txt:{}: the option header (ending "
                                   "here) has no threads line",
                                   LineOf(no_threads, "Doing random write")),
                       0),
            0u)
      << SysbenchErrorOf(no_threads);
}

}  // namespace
}  // namespace flashmark
