// Write amplification over time from write-counter readings: windows that
// close once the media counter has moved enough, never a WAF of 0 from a
// counter that did not move, and what `show` and the JSON say with and
// without media writes.
#include "analysis/write_amplification.h"

#include <gtest/gtest.h>

#include <sstream>

#include "analysis/telemetry_summary.h"
#include "document/telemetry_format.h"
#include "report/telemetry_text.h"

namespace flashmark {
namespace {

constexpr double kGiBytes = 1073741824.0;

TEST(WriteAmplification, WindowsCloseOnceTheCoarseCounterMovedEnough) {
  // A 1 GiB-step media counter read every 60 s while the host writes
  // 10 GiB a minute and the flash 25: 25 steps a minute.
  std::vector<WafPoint> points;
  for (int k = 0; k <= 4; ++k) {
    points.push_back({60.0 * k, 10 * kGiBytes * k,
                      1000 * kGiBytes + 25 * kGiBytes * k, kGiBytes});
  }
  const auto windows = WafWindows(points);
  ASSERT_EQ(windows.size(), 4u);
  EXPECT_DOUBLE_EQ(windows[0].start_seconds, 0);
  EXPECT_DOUBLE_EQ(windows[0].end_seconds, 60);
  EXPECT_DOUBLE_EQ(windows[0].waf, 2.5);
  // Read every 10 s: 4.17 steps between reads; a window spans 5 reads
  // (20.8 steps), so 50 s, and the last 40 s stay open.
  std::vector<WafPoint> often;
  for (int k = 0; k <= 24; ++k) {
    often.push_back({10.0 * k, 10 * kGiBytes * k / 6,
                     std::floor(25.0 * k / 6) * kGiBytes, kGiBytes});
  }
  const auto merged = WafWindows(often);
  ASSERT_EQ(merged.size(), 4u);
  for (const WafWindow& w : merged) {
    EXPECT_GE(w.media, kWafMinSteps * kGiBytes);
    EXPECT_NEAR(w.waf, 2.5, 2.5 / kWafMinSteps);
  }
  EXPECT_DOUBLE_EQ(merged[0].end_seconds, 50);
}

TEST(WriteAmplification, ACounterThatDidNotMoveIsNoFigureNotZero) {
  std::vector<WafPoint> still = {
      {0, 0, 500 * kGiBytes, kGiBytes},
      {60, 5 * kGiBytes, 500 * kGiBytes, kGiBytes},
      {120, 10 * kGiBytes, 500 * kGiBytes, kGiBytes}};
  EXPECT_TRUE(WafWindows(still).empty());
  // Host idle, media moved (garbage collection): no window either.
  std::vector<WafPoint> idle = {{0, 0, 0, 1}, {60, 0, 100, 1}};
  EXPECT_TRUE(WafWindows(idle).empty());
  // A counter that went backwards starts over from there.
  std::vector<WafPoint> reset = {
      {0, 100, 1000, 1}, {60, 50, 10, 1}, {120, 150, 310, 1}};
  const auto windows = WafWindows(reset);
  ASSERT_EQ(windows.size(), 1u);
  EXPECT_DOUBLE_EQ(windows[0].start_seconds, 60);
  EXPECT_DOUBLE_EQ(windows[0].waf, 3);
}

// A run of `count` 1 s intervals on disk "nvme0n1", with a reading every
// `every` intervals: host 1 GiB/s, media 2.4 GiB/s in bytes.
RunResult RunWithReadings(int count, int every) {
  RunResult run;
  TargetInfo target;
  target.path = "/dev/nvme0n1";
  target.device_name = "nvme0n1";
  DeviceHealth health;
  health.source = "nvme";
  health.media_bytes_written = 1;
  health.media_counter = "OCP C0h Physical Media Units Written";
  health.media_step_bytes = 1;
  target.health = health;
  run.environment.targets.push_back(target);
  for (int k = 0; k < count; ++k) {
    IntervalSample sample;
    sample.index = k;
    sample.start_ns = uint64_t(k) * 1'000'000'000;
    sample.end_ns = uint64_t(k + 1) * 1'000'000'000;
    if (k % every == 0) {
      WriteCounterReading r;
      r.device = "nvme0n1";
      r.host_bytes = uint64_t(k) << 30;
      r.media_bytes = (uint64_t(k) * 12 << 30) / 5;
      r.media_step_bytes = 1;
      r.counter = "OCP C0h Physical Media Units Written";
      sample.telemetry.write_counters.push_back(r);
    }
    run.intervals.push_back(sample);
  }
  return run;
}

TEST(WriteAmplification, OverTimeFromAStoredRunAndShownWithItsBasis) {
  RunResult run = RunWithReadings(181, 60);
  // The readings survive the run document (store, export, import).
  for (IntervalSample& sample : run.intervals) {
    sample.telemetry = TelemetryFromJson(ToJson(sample.telemetry));
  }
  const TelemetrySummary summary = SummarizeTelemetry(run);
  ASSERT_EQ(summary.write_amplification.size(), 1u);
  const DiskWriteAmplification& waf = summary.write_amplification[0];
  EXPECT_EQ(waf.device, "nvme0n1");
  EXPECT_EQ(waf.readings, 4u);
  ASSERT_EQ(waf.windows.size(), 3u);
  EXPECT_DOUBLE_EQ(waf.windows[1].start_seconds, 61);
  EXPECT_DOUBLE_EQ(waf.windows[1].end_seconds, 121);
  EXPECT_NEAR(*waf.overall, 2.4, 1e-9);
  EXPECT_TRUE(summary.write_amplification_notes.empty());
  std::ostringstream out;
  PrintTelemetry(summary, out);
  EXPECT_NE(out.str().find("waf    nvme0n1: 2.40 over 3 windows"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("diskstats"), std::string::npos);
  const nlohmann::json doc = TelemetryJson(summary);
  const auto& disk = doc["write_amplification"]["disks"][0];
  EXPECT_EQ(disk["windows"].size(), 3u);
  EXPECT_NEAR(disk["windows"][2]["waf"].get<double>(), 2.4, 1e-9);
  EXPECT_NEAR(disk["overall"].get<double>(), 2.4, 1e-9);
}

TEST(WriteAmplification, ARunWithoutMediaWritesSaysSoAndGivesNoFigure) {
  RunResult run = RunWithReadings(10, 100);  // one reading only
  run.environment.targets[0].health->media_bytes_written.reset();
  run.environment.targets[0].health->media_note =
      "no OCP extended SMART log (C0h): no media writes";
  for (IntervalSample& sample : run.intervals) sample.telemetry = {};
  TargetInfo loop;
  loop.path = "/dev/loop3";
  loop.device_name = "loop3";
  loop.health = DeviceHealth{};
  loop.health->unavailable = "no SMART on loop devices";
  run.environment.targets.push_back(loop);
  const TelemetrySummary summary = SummarizeTelemetry(run);
  EXPECT_TRUE(summary.write_amplification.empty());
  ASSERT_EQ(summary.write_amplification_notes.size(), 2u);
  EXPECT_EQ(summary.write_amplification_notes[0],
            "nvme0n1: the device reports no media writes: no WAF (no OCP "
            "extended SMART log (C0h): no media writes)");
  EXPECT_EQ(summary.write_amplification_notes[1],
            "loop3: the device reports no media writes: no WAF (no SMART on "
            "loop devices)");
  std::ostringstream out;
  PrintTelemetry(summary, out);
  EXPECT_EQ(out.str().find("waf    nvme0n1: 2"), std::string::npos);
  EXPECT_NE(out.str().find("waf    loop3: the device reports no media writes"),
            std::string::npos);
  const nlohmann::json doc = TelemetryJson(summary);
  EXPECT_TRUE(doc["write_amplification"]["disks"].empty());
  EXPECT_EQ(doc["write_amplification"]["notes"].size(), 2u);
}

TEST(WriteAmplification, MicronPagesGiveARatioOverTheRun) {
  RunResult run = RunWithReadings(3, 100);
  TargetInfo& target = run.environment.targets[0];
  DeviceHealth start;
  start.source = "smartctl";
  start.host_program_pages = 1000;
  start.background_program_pages = 500;
  start.percentage_used = 3;
  DeviceHealth end = start;
  end.host_program_pages = 1400;
  end.background_program_pages = 1100;
  end.percentage_used = 4;
  target.health = start;
  target.health_end = end;
  for (IntervalSample& sample : run.intervals) sample.telemetry = {};
  const TelemetrySummary summary = SummarizeTelemetry(run);
  ASSERT_EQ(summary.health.size(), 1u);
  EXPECT_DOUBLE_EQ(*summary.health[0].write_amplification, 2.5);  // 1000/400
  EXPECT_EQ(summary.health[0].percentage_used_end, 4);
  EXPECT_TRUE(summary.write_amplification_notes.empty());
  std::ostringstream out;
  PrintTelemetry(summary, out);
  EXPECT_NE(out.str().find("write amplification 2.50"), std::string::npos);
  EXPECT_NE(out.str().find("rated wear used 3 -> 4 %"), std::string::npos);
}

TEST(WriteAmplification, EnduranceAgainstTheRatedTerabytesWritten) {
  RunResult run = RunWithReadings(3, 100);
  TargetInfo& target = run.environment.targets[0];
  DeviceHealth start;
  start.source = "nvme";
  start.bytes_written = 512000ull * 1000000;  // NVMe data units
  DeviceHealth end = start;
  end.bytes_written = 512000ull * 1012000;  // 6.144 GB more
  target.health = start;
  target.health_end = end;
  const TelemetrySummary summary = SummarizeTelemetry(run);
  const Endurance e = EnduranceOf(summary, 600'000'000'000'000);
  EXPECT_EQ(e.host_bytes, 6'144'000'000u);
  EXPECT_EQ(e.host_source, "SMART");
  EXPECT_NEAR(*e.percent_of_rating, 0.001024, 1e-12);
  EXPECT_EQ(EnduranceLine(summary, "600T"),
            "endurance the host wrote 5.72 GiB (SMART) during the run: "
            "0.001024 % of the rated 600 TB written (tag tbw=600T)");
  EXPECT_EQ(EnduranceJson(summary, "600T")["rated_bytes"],
            600'000'000'000'000u);
  EXPECT_NE(EnduranceLine(summary, "lots").find("not a size"),
            std::string::npos);
  EXPECT_TRUE(EnduranceJson(summary, "lots")["note"].is_string());
}

}  // namespace
}  // namespace flashmark
