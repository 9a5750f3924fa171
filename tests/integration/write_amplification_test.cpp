// Write amplification end to end through the binary: a stored run whose
// intervals carry SMART write-counter readings (as the run's reader
// thread records them on a drive with media writes; no such drive here,
// so the run is written to the store directly) is shown with its WAF over
// time, exported with its windows, and the Markdown report of a fill
// sweep's runs shows WAF against size.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"
#include "store/run_store.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

constexpr uint64_t kGiB = uint64_t{1} << 30;

// A 181 s run on nvme0n1 tagged size=`size`: host 1 GiB/s, media
// `waf_tenths` / 10 GiB/s, read every 60 s from the OCP C0h counter.
void StoreRunWithReadings(const std::string& db, const std::string& size,
                          uint64_t waf_tenths) {
  auto store = RunStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.error().message;
  RunResult run;
  run.spec.mode = IoMode::kRndWr;
  run.spec.interval = std::chrono::seconds(1);
  run.spec.targets = {"/dev/nvme0n1"};
  run.command_line = "write_amplification_test";
  TargetInfo target;
  target.path = "/dev/nvme0n1";
  target.device_name = "nvme0n1";
  DeviceHealth health;
  health.source = "smartctl";
  health.media_bytes_written = 7 * kGiB;
  health.media_counter = "OCP C0h Physical Media Units Written";
  health.media_step_bytes = 1;
  target.health = health;
  run.environment.targets.push_back(target);
  auto id =
      store->BeginRun(run, {"waf " + size, {{"size", size}}, "flashmark", ""});
  ASSERT_TRUE(id.ok()) << id.error().message;
  for (uint32_t k = 0; k < 181; ++k) {
    IntervalSample sample;
    sample.index = k;
    sample.start_ns = uint64_t{k} * 1'000'000'000;
    sample.end_ns = uint64_t{k + 1} * 1'000'000'000;
    sample.write = {262144, kGiB};
    DiskActivity disk;
    disk.device = "nvme0n1";
    disk.writes = 262144;
    disk.write_bytes = kGiB;
    sample.telemetry.disks.push_back(disk);
    if (k % 60 == 0) {
      WriteCounterReading r;
      r.device = "nvme0n1";
      r.host_bytes = 1000 * kGiB + k * kGiB;
      r.media_bytes = 7 * kGiB + k * kGiB * waf_tenths / 10;
      r.media_step_bytes = 1;
      r.counter = health.media_counter;
      sample.telemetry.write_counters.push_back(r);
    }
    run.intervals.push_back(sample);
    ASSERT_TRUE(store->AppendInterval(*id, sample).ok());
  }
  ASSERT_TRUE(store->FinishRun(*id, run).ok());
}

TEST(WriteAmplification, StoredReadingsAreShownExportedAndReported) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  StoreRunWithReadings(db, "50G", 15);
  StoreRunWithReadings(db, "250G", 32);

  const Invocation show = RunFlashmark({"show", "2", "--db", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("  waf    nvme0n1: 3.20 over 3 windows (per window "
                          "median 3.20, 3.20..3.20) from OCP C0h Physical "
                          "Media Units Written: media bytes (SMART) / host "
                          "bytes written to the whole disk (diskstats), "
                          "between SMART reads, a window closing once the "
                          "media counter moved 20 steps\n"),
            std::string::npos)
      << show.out;
  EXPECT_EQ(show.out.find("no WAF"), std::string::npos) << show.out;

  const Invocation exported =
      RunFlashmark({"export", "1", "--format", "json", "--db", db});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const json doc = json::parse(exported.out, nullptr, false);
  ASSERT_TRUE(doc.is_object());
  const json& waf = doc["telemetry"]["write_amplification"]["disks"][0];
  EXPECT_EQ(waf["device"], "nvme0n1");
  EXPECT_EQ(waf["readings"], 4);
  ASSERT_EQ(waf["windows"].size(), 3u);
  EXPECT_DOUBLE_EQ(waf["windows"][0]["start_seconds"].get<double>(), 1);
  EXPECT_DOUBLE_EQ(waf["windows"][0]["end_seconds"].get<double>(), 61);
  EXPECT_DOUBLE_EQ(waf["windows"][0]["host"].get<double>(), 60.0 * kGiB);
  EXPECT_DOUBLE_EQ(waf["windows"][0]["waf"].get<double>(), 1.5);

  // Endurance against the rated TBW, from the tag tbw; a bad one is
  // refused with exit status 2 and nothing tagged.
  const Invocation bad = RunFlashmark({"tag", "2", "tbw=lots", "--db", db});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("tbw=\"lots\" is not a size"), std::string::npos)
      << bad.err;
  EXPECT_EQ(RunFlashmark({"show", "2", "--db", db}).out.find("endurance"),
            std::string::npos);
  ASSERT_EQ(RunFlashmark({"tag", "2", "tbw=600T", "--db", db}).exit_code, 0);
  const Invocation rated = RunFlashmark({"show", "2", "--db", db});
  EXPECT_NE(rated.out.find("  endurance the host wrote 181 GiB (diskstats) "
                           "during the run: 0.03239 % of the rated 600 TB "
                           "written (tag tbw=600T)"),
            std::string::npos)
      << rated.out;

  const std::string md = dir.File("fill.md");
  const Invocation report = RunFlashmark(
      {"report", "1", "2", "--by", "size", "--md", md, "--db", db});
  ASSERT_EQ(report.exit_code, 0) << report.err << report.out;
  const std::string text = ReadFile(md);
  EXPECT_NE(text.find("| 50G | 1.50 | 1 |"), std::string::npos) << text;
  EXPECT_NE(text.find("| 250G | 3.20 | 1 |"), std::string::npos) << text;
  EXPECT_NE(
      ReadFile(dir.File("fill-waf.svg")).find("Write amplification vs size"),
      std::string::npos);
}

}  // namespace
}  // namespace flashmark::testing
