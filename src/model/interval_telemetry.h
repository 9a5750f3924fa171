// IntervalTelemetry: what the host and its devices did during one sampling
// interval, beside what flashmark's own workers did (IntervalSample): for
// every block device under the targets the /proc/diskstats deltas, the
// machine's CPU time by kind (/proc/stat) and this process's own
// (getrusage), and the disk temperature where the kernel shows it cheaply
// (hwmon), and the disks' write counters when SMART was read during the
// interval (every minute or so, model/write_counter_reading.h). Plain data.
// Counts are deltas over the interval; times are milliseconds as the kernel
// counts them (diskstats) or seconds of CPU time summed over all CPUs (cpu).
// Runs recorded before telemetry existed, and diskless runs, have none
// (empty()).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/write_counter_reading.h"

namespace flashmark {

// One block device's /proc/diskstats deltas over an interval.
struct DiskActivity {
  std::string device;     // kernel name: "vda1", "md0", "loop3"
  std::string member_of;  // for an md/dm member: the device it makes up
  uint64_t reads = 0;     // completed
  uint64_t reads_merged = 0;
  uint64_t read_bytes = 0;
  uint64_t read_ms = 0;  // time spent reading (sum over IOs)
  uint64_t writes = 0;
  uint64_t writes_merged = 0;
  uint64_t write_bytes = 0;
  uint64_t write_ms = 0;
  uint64_t busy_ms = 0;   // io_ticks: time with at least one IO in flight
  uint64_t queue_ms = 0;  // time_in_queue: in-flight time summed over IOs

  // Share of the interval the device was busy, 0..1 (iostat's %util / 100).
  double Utilisation(double seconds) const;
  // Average number of IOs in flight (iostat's aqu-sz).
  double QueueSize(double seconds) const;
  // Average device-side time per IO in ms (iostat's await); 0 when none.
  double AwaitMs() const;
};

// CPU time over an interval, in seconds summed over all CPUs.
struct CpuActivity {
  // The machine (/proc/stat "cpu" line): what every CPU spent its time on.
  double user = 0;  // user + nice
  double system = 0;
  double iowait = 0;
  double irq = 0;
  double softirq = 0;
  double steal = 0;
  double idle = 0;
  // This process, all its threads (getrusage).
  double self_user = 0;
  double self_system = 0;

  double total() const {
    return user + system + iowait + irq + softirq + steal + idle;
  }
  // `part` as a percentage of all CPU time in the interval; 0 when none.
  double Percent(double part) const;
};

struct IntervalTelemetry {
  std::vector<DiskActivity> disks;  // the targets' devices, then members
  std::optional<CpuActivity> cpu;
  // The hottest disk under the targets at the interval's end (hwmon).
  std::optional<double> temperature_celsius;
  // Readings of the disks' write counters completed in this interval.
  std::vector<WriteCounterReading> write_counters;

  bool empty() const {
    return disks.empty() && !cpu && !temperature_celsius &&
           write_counters.empty();
  }
  // The devices the targets sit on (not members), summed: bytes the
  // devices moved, to set beside the application's.
  uint64_t DeviceReadBytes() const;
  uint64_t DeviceWriteBytes() const;
  // The busiest of the devices the targets sit on; null when none.
  const DiskActivity* Busiest() const;

 private:
  uint64_t TargetDeviceSum(uint64_t DiskActivity::*field) const;
};

}  // namespace flashmark
