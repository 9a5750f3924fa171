// HostTelemetry: the RunTelemetry of a run on this machine
// (model/run_telemetry.h). Per interval it reads /proc/diskstats for the
// block devices under the run's targets (the device each target sits on,
// then recursively the members of an md/dm device), /proc/stat for the
// machine's CPU time by kind, getrusage for flashmark's own, and the
// hwmon temperature of the disks that expose one (NVMe, drivetemp); at the
// end it reads SMART/NVMe health again for the disks whose health was read
// at the start (system/device_health.h). For the disks whose health at
// the start gave a media-write figure, a WriteCounterSampler reads SMART
// every minute on its own thread, and Sample() hands its readings to the
// interval they completed in (write amplification over time). Threading:
// as RunTelemetry (Sample and Finish on the sampler thread); not shared.
//
// The parsers and the delta arithmetic are pure functions, tested on
// fixtures of real /proc files. A counter that went backwards (a device
// removed and re-added) reads as 0 for that interval, never as a wrap.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/environment.h"
#include "model/run_telemetry.h"
#include "system/write_counter_sampler.h"

namespace flashmark {

// One /proc/diskstats line's cumulative counters (sectors are 512 bytes).
struct DiskCounters {
  uint64_t reads = 0, reads_merged = 0, read_sectors = 0, read_ms = 0;
  uint64_t writes = 0, writes_merged = 0, write_sectors = 0, write_ms = 0;
  uint64_t busy_ms = 0, queue_ms = 0;
};
// Every device of a /proc/diskstats text, by kernel name; malformed lines
// are skipped.
std::map<std::string, DiskCounters> ParseDiskstats(std::string_view text);
DiskActivity DiskDelta(const std::string& device, const DiskCounters& before,
                       const DiskCounters& after);

// The "cpu" line of /proc/stat, in clock ticks (USER_HZ).
struct CpuTicks {
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0,
           softirq = 0, steal = 0;
};
std::optional<CpuTicks> ParseProcStat(std::string_view text);
// The machine's part of a CpuActivity (self_* left 0).
CpuActivity CpuDelta(const CpuTicks& before, const CpuTicks& after,
                     double ticks_per_second);

// A device to follow: a target's own, or a member of one (member_of set).
struct WatchedDisk {
  std::string name;  // kernel name
  std::string member_of;
};
// The devices under the targets, each once, targets' own first.
std::vector<WatchedDisk> DisksUnderTargets(const Environment& environment);

class HostTelemetry final : public RunTelemetry {
 public:
  // `write_counter_period`: how often SMART is read for write
  // amplification (only disks whose start health gave a media figure).
  explicit HostTelemetry(
      const Environment& environment,
      std::chrono::nanoseconds write_counter_period = kWriteCounterPeriod);
  IntervalTelemetry Sample() override;
  // Health at the end for every target whose health was read at the start.
  void Finish(Environment& environment) override;

  const std::vector<WatchedDisk>& disks() const { return disks_; }

 private:
  std::vector<WatchedDisk> disks_;
  std::vector<std::string> temperature_files_;  // hwmon temp*_input
  double ticks_per_second_;
  bool primed_ = false;
  std::map<std::string, DiskCounters> disk_before_;
  std::optional<CpuTicks> cpu_before_;
  double self_user_before_ = 0, self_system_before_ = 0;
  std::unique_ptr<WriteCounterSampler> write_counters_;
};

}  // namespace flashmark
