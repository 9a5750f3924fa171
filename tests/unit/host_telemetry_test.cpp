// Device and host telemetry: /proc/diskstats and /proc/stat parsed from
// real files of this project's VM (tests/fixtures/proc: two snapshots one
// second apart, with a 64 MiB O_DIRECT dd to vda between them), the deltas
// and derived figures (iostat's %util, aqu-sz, await), the JSON round
// trip, the merge of parts, the run summary (device / application bytes,
// CPU shares, write amplification from SMART at start and end), and the
// live reader on this machine.
#include "system/host_telemetry.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "analysis/telemetry_summary.h"
#include "document/health_format.h"
#include "document/telemetry_format.h"
#include "model/interval_merge.h"
#include "system/device_health.h"

namespace flashmark {
namespace {

std::string ProcFixture(const std::string& name) {
  std::ifstream in(std::string(FLASHMARK_FIXTURES) + "/proc/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(HostTelemetry, ParsesEveryDiskstatsLine) {
  const auto disks = ParseDiskstats(ProcFixture("diskstats.before"));
  ASSERT_EQ(disks.count("vda"), 1u);
  ASSERT_EQ(disks.count("loop0"), 1u);
  const DiskCounters& vda = disks.at("vda");
  EXPECT_EQ(vda.reads, 150950566u);
  EXPECT_EQ(vda.reads_merged, 90876u);
  EXPECT_EQ(vda.read_sectors, 1662894260u);
  EXPECT_EQ(vda.read_ms, 83715895u);
  EXPECT_EQ(vda.writes, 70443459u);
  EXPECT_EQ(vda.writes_merged, 373536u);
  EXPECT_EQ(vda.write_sectors, 3739203056u);
  EXPECT_EQ(vda.write_ms, 133423492u);
  EXPECT_EQ(vda.busy_ms, 3165996u);  // field 13 (io_ticks), not in-flight
  EXPECT_EQ(vda.queue_ms, 217359504u);
}

TEST(HostTelemetry, SkipsMalformedDiskstatsLines) {
  const auto disks = ParseDiskstats(
      "   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
      "garbage\n"
      "   8 1 sdb 1 2 x 4 5 6 7 8 9 10 11\n"
      "   8 2 sdc 1 2 3\n");
  EXPECT_EQ(disks.size(), 1u);
  EXPECT_EQ(disks.at("sda").queue_ms, 11u);
}

TEST(HostTelemetry, DiskDeltaOfTheDdBetweenTheSnapshots) {
  const auto before = ParseDiskstats(ProcFixture("diskstats.before"));
  const auto after = ParseDiskstats(ProcFixture("diskstats.after"));
  const DiskActivity vda = DiskDelta("vda", before.at("vda"), after.at("vda"));
  EXPECT_EQ(vda.write_bytes, 64u << 20);  // what dd wrote, exactly
  EXPECT_EQ(vda.writes, 128u);            // in 512 KiB requests
  EXPECT_EQ(vda.reads, 3u);
  EXPECT_EQ(vda.read_bytes, 168u * 512);
  EXPECT_EQ(vda.busy_ms, 52u);
  EXPECT_EQ(vda.queue_ms, 94u);
  EXPECT_EQ(vda.write_ms, 93u);
  // iostat's figures over a 1 s interval.
  EXPECT_NEAR(vda.Utilisation(1.0), 0.052, 1e-12);
  EXPECT_NEAR(vda.QueueSize(1.0), 0.094, 1e-12);
  EXPECT_NEAR(vda.AwaitMs(), 95.0 / 131, 1e-12);
  // The idle loop device moved nothing.
  const DiskActivity loop =
      DiskDelta("loop0", before.at("loop0"), after.at("loop0"));
  EXPECT_EQ(loop.reads + loop.writes + loop.busy_ms, 0u);
  EXPECT_EQ(loop.AwaitMs(), 0);
}

TEST(HostTelemetry, ACounterThatWentBackReadsAsZero) {
  DiskCounters before;
  before.writes = 100;
  before.write_sectors = 800;
  DiskCounters after;  // the device was removed and came back
  after.writes = 5;
  after.write_sectors = 40;
  const DiskActivity disk = DiskDelta("sdz", before, after);
  EXPECT_EQ(disk.writes, 0u);
  EXPECT_EQ(disk.write_bytes, 0u);
}

TEST(HostTelemetry, UtilisationIsAtMostTheWholeInterval) {
  DiskActivity disk;
  disk.busy_ms = 1004;  // io_ticks a tick ahead of the sampler
  EXPECT_EQ(disk.Utilisation(1.0), 1.0);
  EXPECT_EQ(disk.Utilisation(0), 0);
}

TEST(HostTelemetry, ProcStatCpuLine) {
  const auto before = ParseProcStat(ProcFixture("stat.before"));
  const auto after = ParseProcStat(ProcFixture("stat.after"));
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->user, 4172575u);
  EXPECT_EQ(before->nice, 123502u);
  EXPECT_EQ(before->iowait, 186467u);
  EXPECT_EQ(before->softirq, 20061u);
  const CpuActivity cpu = CpuDelta(*before, *after, 100);
  EXPECT_DOUBLE_EQ(cpu.system, 0.01);
  EXPECT_DOUBLE_EQ(cpu.idle, 2.06);
  EXPECT_DOUBLE_EQ(cpu.iowait, 0.04);
  EXPECT_DOUBLE_EQ(cpu.user, 0);
  EXPECT_DOUBLE_EQ(cpu.total(), 2.11);  // 2 CPUs for about a second
  EXPECT_NEAR(cpu.Percent(cpu.iowait), 100 * 0.04 / 2.11, 1e-9);
  EXPECT_FALSE(ParseProcStat("intr 1 2 3\n"));
  EXPECT_FALSE(ParseProcStat("cpu 1 2 3\n"));
}

IntervalTelemetry SampleTelemetry() {
  IntervalTelemetry t;
  DiskActivity md;
  md.device = "md0";
  md.write_bytes = 3 << 20;
  md.writes = 10;
  md.write_ms = 20;
  md.busy_ms = 500;
  md.queue_ms = 2000;
  t.disks.push_back(md);
  DiskActivity member;
  member.device = "loop7";
  member.member_of = "md0";
  member.write_bytes = 6 << 20;  // mirrored: twice
  t.disks.push_back(member);
  CpuActivity cpu;
  cpu.user = 0.25;
  cpu.system = 0.5;
  cpu.iowait = 0.25;
  cpu.idle = 1.0;
  cpu.self_user = 0.1;
  cpu.self_system = 0.3;
  t.cpu = cpu;
  t.temperature_celsius = 41.5;
  return t;
}

TEST(HostTelemetry, JsonRoundTrip) {
  const IntervalTelemetry t = SampleTelemetry();
  const IntervalTelemetry back = TelemetryFromJson(ToJson(t));
  ASSERT_EQ(back.disks.size(), 2u);
  EXPECT_EQ(back.disks[0].device, "md0");
  EXPECT_EQ(back.disks[0].queue_ms, 2000u);
  EXPECT_EQ(back.disks[1].member_of, "md0");
  ASSERT_TRUE(back.cpu);
  EXPECT_DOUBLE_EQ(back.cpu->self_system, 0.3);
  EXPECT_EQ(back.temperature_celsius, 41.5);
  // Members do not count twice beside the device they make up.
  EXPECT_EQ(back.DeviceWriteBytes(), 3u << 20);
  // Anything else reads as no telemetry, never as an error.
  EXPECT_TRUE(TelemetryFromJson(nlohmann::json("x")).empty());
  EXPECT_TRUE(
      TelemetryFromJson(nlohmann::json::parse(R"({"disks": [1, {"x": 2}]})"))
          .empty());
}

TEST(HostTelemetry, PartsOnOneHostCountEachDeviceOnce) {
  IntervalTelemetry total = SampleTelemetry();
  IntervalTelemetry part = SampleTelemetry();
  part.disks.pop_back();
  DiskActivity other;
  other.device = "vdb";
  part.disks.push_back(other);
  part.temperature_celsius = 50;
  MergeTelemetry(total, part);
  ASSERT_EQ(total.disks.size(), 3u);
  EXPECT_EQ(total.disks[0].write_bytes, 3u << 20);  // not summed
  EXPECT_EQ(total.disks[2].device, "vdb");
  EXPECT_DOUBLE_EQ(total.cpu->user, 0.25);        // the machine: once
  EXPECT_DOUBLE_EQ(total.cpu->self_system, 0.6);  // two processes
  EXPECT_EQ(total.temperature_celsius, 50);
}

TEST(HostTelemetry, SummaryOfARun) {
  RunResult run;
  for (uint32_t k = 0; k < 4; ++k) {
    IntervalSample sample;
    sample.index = k;
    sample.start_ns = k * 1'000'000'000ull;
    sample.end_ns = (k + 1) * 1'000'000'000ull;
    sample.write = {100, 2 << 20};  // the device wrote 1.5x this
    sample.telemetry = SampleTelemetry();
    run.intervals.push_back(sample);
  }
  run.intervals.back().partial = true;
  run.intervals.back().telemetry.disks[0].busy_ms = 1000;
  TargetInfo target;
  target.device_name = "sdq";
  DeviceHealth start;
  start.bytes_written = 1000;
  start.media_bytes_written = 5000;
  start.thermal_throttle_events = 2;
  DeviceHealth end = start;
  end.bytes_written = 3000;
  end.media_bytes_written = 10000;
  end.thermal_throttle_events = 3;
  target.health = start;
  target.health_end = end;
  run.environment.targets.push_back(target);

  const TelemetrySummary s = SummarizeTelemetry(run);
  ASSERT_EQ(s.disks.size(), 2u);
  EXPECT_EQ(s.disks[0].device, "md0");
  EXPECT_EQ(s.disks[0].utilisation_percent.count, 3u);  // full intervals
  EXPECT_DOUBLE_EQ(s.disks[0].utilisation_percent.median, 50);
  EXPECT_DOUBLE_EQ(s.disks[0].queue_size.median, 2);
  EXPECT_DOUBLE_EQ(s.disks[0].write_mibs.median, 3);
  EXPECT_EQ(s.disks[0].write_bytes, 4u * (3 << 20));  // with the partial
  ASSERT_TRUE(s.device_write_ratio);
  EXPECT_DOUBLE_EQ(*s.device_write_ratio, 1.5);
  EXPECT_FALSE(s.device_read_ratio);
  EXPECT_TRUE(s.has_cpu);
  EXPECT_DOUBLE_EQ(s.cpu_system_percent.median, 25);
  EXPECT_DOUBLE_EQ(s.self_cpu_percent.median, 40);
  EXPECT_NEAR(*s.self_cpu_us_per_io, 1e6 * 4 * 0.4 / 400, 1e-9);
  EXPECT_EQ(s.temperature_max, 41.5);
  ASSERT_EQ(s.health.size(), 1u);
  EXPECT_EQ(s.health[0].host_bytes_written, 2000u);
  EXPECT_EQ(s.health[0].media_bytes_written, 5000u);
  EXPECT_DOUBLE_EQ(*s.health[0].write_amplification, 2.5);
  EXPECT_EQ(s.health[0].throttle_events, 1u);
}

// 1 ms intervals see the kernel's 10 ms CPU ticks in one interval out of
// ten: taken one by one the median would be 0 %; the summary reads them in
// stretches of half a second.
TEST(HostTelemetry, ShortIntervalsAreSummarisedInStretches) {
  RunResult run;
  for (uint32_t k = 0; k < 1000; ++k) {
    IntervalSample sample;
    sample.index = k;
    sample.start_ns = k * 1'000'000ull;
    sample.end_ns = (k + 1) * 1'000'000ull;
    CpuActivity cpu;
    if (k % 10 == 9) {  // a tick on each of two CPUs: one busy, one idle
      cpu.user = 0.01;
      cpu.idle = 0.01;
      cpu.self_user = 0.01;
    }
    sample.telemetry.cpu = cpu;
    DiskActivity disk;
    disk.device = "vdb";
    disk.busy_ms = k % 2;  // whole ms: busy every other interval
    sample.telemetry.disks.push_back(disk);
    run.intervals.push_back(sample);
  }
  const TelemetrySummary s = SummarizeTelemetry(run);
  EXPECT_EQ(s.cpu_user_percent.count, 2u);
  EXPECT_DOUBLE_EQ(s.cpu_user_percent.median, 50);
  EXPECT_NEAR(s.self_cpu_percent.median, 100, 1e-9);
  ASSERT_EQ(s.disks.size(), 1u);
  EXPECT_EQ(s.disks[0].utilisation_percent.count, 2u);
  EXPECT_NEAR(s.disks[0].utilisation_percent.median, 50, 1e-9);
}

TEST(HostTelemetry, HealthEndFieldsParsedAndKept) {
  const DeviceHealth ata = ParseSmartctlJson(nlohmann::json::parse(R"({
    "ata_smart_attributes": {"table": [
      {"id": 249, "name": "NAND_Writes_1GiB", "value": 100, "raw": {"value": 3}}]}})"));
  EXPECT_EQ(ata.media_bytes_written, 3ull << 30);
  const DeviceHealth nvme = ParseNvmeSmartLog(nlohmann::json::parse(R"({
    "warning_temp_time": 7, "critical_comp_time": 1,
    "thm_temp1_trans_count": 4, "thm_temp2_trans_count": 1})"));
  EXPECT_EQ(nvme.warning_temperature_minutes, 7u);
  EXPECT_EQ(nvme.critical_temperature_minutes, 1u);
  EXPECT_EQ(nvme.thermal_throttle_events, 5u);
  const DeviceHealth back = HealthFromJson(HealthJson(nvme));
  EXPECT_EQ(back.thermal_throttle_events, 5u);
  EXPECT_EQ(back.warning_temperature_minutes, 7u);
  EXPECT_EQ(HealthFromJson(HealthJson(ata)).media_bytes_written, 3ull << 30);
}

TEST(HostTelemetry, LiveReaderOnThisMachine) {
  Environment environment;  // no targets: the CPU only
  HostTelemetry telemetry(environment);
  EXPECT_TRUE(telemetry.Sample().empty());  // the baseline
  volatile double spin = 0;
  for (int k = 0; k < 20'000'000; ++k) spin = spin + k;
  usleep(20'000);
  const IntervalTelemetry t = telemetry.Sample();
  ASSERT_TRUE(t.cpu);
  EXPECT_GT(t.cpu->self_user + t.cpu->self_system, 0);
  EXPECT_GE(t.cpu->total(), 0);
  EXPECT_TRUE(t.disks.empty());
}

}  // namespace
}  // namespace flashmark
