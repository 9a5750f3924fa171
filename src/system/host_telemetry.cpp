#include "system/host_telemetry.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/sysfs_text.h"
#include "system/block_device_info.h"
#include "system/device_health.h"

namespace flashmark {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kSectorBytes = 512;

std::string ReadWhole(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Whitespace-separated fields of one line.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
    const size_t end = line.find_first_of(" \t", at);
    const size_t stop = end == std::string_view::npos ? line.size() : end;
    if (stop > at) fields.push_back(line.substr(at, stop - at));
    at = stop;
  }
  return fields;
}

bool ToNumber(std::string_view text, uint64_t& value) {
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

uint64_t Since(uint64_t before, uint64_t after) {
  return after >= before ? after - before : 0;
}

double Seconds(const timeval& value) {
  return value.tv_sec + value.tv_usec / 1e6;
}

// The hwmon temperature inputs of whole disk `disk`: an NVMe controller's
// (device/hwmonN) or a SCSI/ATA disk's with drivetemp (device/hwmon/hwmonN).
std::vector<std::string> TemperatureFiles(const std::string& disk) {
  std::vector<std::string> found;
  const fs::path device = fs::path("/sys/class/block") / disk / "device";
  std::error_code error;
  for (const fs::path& parent : {device, device / "hwmon"}) {
    for (fs::directory_iterator it(parent, error), end; !error && it != end;
         it.increment(error)) {
      const std::string name = it->path().filename().string();
      if (name.rfind("hwmon", 0) != 0 || name == "hwmon") continue;
      const fs::path input = it->path() / "temp1_input";
      if (fs::exists(input, error)) found.push_back(input.string());
    }
  }
  return found;
}

}  // namespace

std::map<std::string, DiskCounters> ParseDiskstats(std::string_view text) {
  std::map<std::string, DiskCounters> disks;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? "" : text.substr(end + 1);
    const auto fields = Fields(line);
    if (fields.size() < 14) continue;  // major minor name + 11 counters
    uint64_t values[11];
    bool ok = true;
    for (int k = 0; k < 11 && ok; ++k) ok = ToNumber(fields[3 + k], values[k]);
    if (!ok) continue;
    // values[8] is the IOs in flight now, not a counter.
    disks[std::string(fields[2])] = {values[0], values[1], values[2], values[3],
                                     values[4], values[5], values[6], values[7],
                                     values[9], values[10]};
  }
  return disks;
}

DiskActivity DiskDelta(const std::string& device, const DiskCounters& before,
                       const DiskCounters& after) {
  DiskActivity disk;
  disk.device = device;
  disk.reads = Since(before.reads, after.reads);
  disk.reads_merged = Since(before.reads_merged, after.reads_merged);
  disk.read_bytes =
      Since(before.read_sectors, after.read_sectors) * kSectorBytes;
  disk.read_ms = Since(before.read_ms, after.read_ms);
  disk.writes = Since(before.writes, after.writes);
  disk.writes_merged = Since(before.writes_merged, after.writes_merged);
  disk.write_bytes =
      Since(before.write_sectors, after.write_sectors) * kSectorBytes;
  disk.write_ms = Since(before.write_ms, after.write_ms);
  disk.busy_ms = Since(before.busy_ms, after.busy_ms);
  disk.queue_ms = Since(before.queue_ms, after.queue_ms);
  return disk;
}

std::optional<CpuTicks> ParseProcStat(std::string_view text) {
  const std::string_view line = text.substr(0, text.find('\n'));
  const auto fields = Fields(line);
  if (fields.size() < 9 || fields[0] != "cpu") return std::nullopt;
  uint64_t values[8];
  for (int k = 0; k < 8; ++k) {
    if (!ToNumber(fields[1 + k], values[k])) return std::nullopt;
  }
  return CpuTicks{values[0], values[1], values[2], values[3],
                  values[4], values[5], values[6], values[7]};
}

CpuActivity CpuDelta(const CpuTicks& before, const CpuTicks& after,
                     double ticks_per_second) {
  const auto seconds = [ticks_per_second](uint64_t from, uint64_t to) {
    return Since(from, to) / ticks_per_second;
  };
  CpuActivity cpu;
  cpu.user =
      seconds(before.user, after.user) + seconds(before.nice, after.nice);
  cpu.system = seconds(before.system, after.system);
  cpu.idle = seconds(before.idle, after.idle);
  cpu.iowait = seconds(before.iowait, after.iowait);
  cpu.irq = seconds(before.irq, after.irq);
  cpu.softirq = seconds(before.softirq, after.softirq);
  cpu.steal = seconds(before.steal, after.steal);
  return cpu;
}

std::vector<WatchedDisk> DisksUnderTargets(const Environment& environment) {
  std::vector<WatchedDisk> disks;
  std::set<std::string> seen;
  for (const TargetInfo& target : environment.targets) {
    if (target.device.empty()) continue;
    const auto number = BlockDeviceNumber(target.device);
    if (!number) continue;
    const auto name = BlockDeviceName(*number);
    if (!name || !seen.insert(*name).second) continue;
    disks.push_back({*name, ""});
  }
  // Members of md/dm devices, breadth first, each named after the device
  // it makes up.
  for (size_t k = 0; k < disks.size(); ++k) {
    const auto device = ReadBlockDevice(disks[k].name);
    if (!device) continue;
    for (const std::string& member : device->members) {
      if (seen.insert(member).second) disks.push_back({member, disks[k].name});
    }
  }
  return disks;
}

HostTelemetry::HostTelemetry(const Environment& environment,
                             std::chrono::nanoseconds write_counter_period)
    : disks_(DisksUnderTargets(environment)),
      ticks_per_second_(static_cast<double>(sysconf(_SC_CLK_TCK))) {
  std::set<std::string> disks;
  std::vector<BlockDevice> with_media_writes;
  for (const TargetInfo& target : environment.targets) {
    if (target.device_name.empty()) continue;
    const bool added = disks.insert(target.device_name).second;
    if (added && target.health && HasMediaWrites(*target.health)) {
      if (auto disk = ReadBlockDevice(target.device_name)) {
        with_media_writes.push_back(std::move(*disk));
      }
    }
  }
  if (!with_media_writes.empty()) {
    write_counters_ = std::make_unique<WriteCounterSampler>(
        std::move(with_media_writes), FindHealthTools(), write_counter_period);
  }
  for (const std::string& disk : disks) {
    for (std::string& file : TemperatureFiles(disk)) {
      temperature_files_.push_back(std::move(file));
    }
  }
  if (ticks_per_second_ <= 0) ticks_per_second_ = 100;
}

IntervalTelemetry HostTelemetry::Sample() {
  auto disk_now = disks_.empty() ? std::map<std::string, DiskCounters>()
                                 : ParseDiskstats(ReadWhole("/proc/diskstats"));
  const auto cpu_now = ParseProcStat(ReadWhole("/proc/stat"));
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double self_user = Seconds(usage.ru_utime);
  const double self_system = Seconds(usage.ru_stime);

  IntervalTelemetry telemetry;
  if (primed_) {
    for (const WatchedDisk& watched : disks_) {
      const auto before = disk_before_.find(watched.name);
      const auto after = disk_now.find(watched.name);
      if (before == disk_before_.end() || after == disk_now.end()) continue;
      DiskActivity disk =
          DiskDelta(watched.name, before->second, after->second);
      disk.member_of = watched.member_of;
      telemetry.disks.push_back(std::move(disk));
    }
    if (cpu_before_ && cpu_now) {
      CpuActivity cpu = CpuDelta(*cpu_before_, *cpu_now, ticks_per_second_);
      cpu.self_user = std::max(0.0, self_user - self_user_before_);
      cpu.self_system = std::max(0.0, self_system - self_system_before_);
      telemetry.cpu = cpu;
    }
    constexpr uint64_t kUnreadable = UINT64_MAX;
    for (const std::string& file : temperature_files_) {
      const uint64_t millidegrees = ReadSysfsNumber(file, kUnreadable);
      if (millidegrees == kUnreadable) continue;
      const double celsius = millidegrees / 1000.0;
      if (!telemetry.temperature_celsius ||
          celsius > *telemetry.temperature_celsius) {
        telemetry.temperature_celsius = celsius;
      }
    }
  }
  // Readings done before the baseline wait for the first interval.
  if (primed_ && write_counters_) {
    telemetry.write_counters = write_counters_->Take();
  }
  primed_ = true;
  disk_before_ = std::move(disk_now);
  cpu_before_ = cpu_now;
  self_user_before_ = self_user;
  self_system_before_ = self_system;
  return telemetry;
}

void HostTelemetry::Finish(Environment& environment) {
  if (write_counters_) write_counters_->Stop();  // no tool runs beside these
  const HealthTools tools = FindHealthTools();
  for (TargetInfo& target : environment.targets) {
    if (!target.health || target.health->source.empty() ||
        target.device_name.empty()) {
      continue;
    }
    if (const auto disk = ReadBlockDevice(target.device_name)) {
      target.health_end = ReadDeviceHealth(*disk, tools);
    }
  }
}

}  // namespace flashmark
