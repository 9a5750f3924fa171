#include "system/write_counter_sampler.h"

#include <fstream>
#include <sstream>

#include "system/host_telemetry.h"

namespace flashmark {
namespace {

std::map<std::string, DiskCounters> DiskstatsNow() {
  std::ifstream in("/proc/diskstats");
  std::stringstream text;
  text << in.rdbuf();
  return ParseDiskstats(text.str());
}

}  // namespace

bool HasMediaWrites(const DeviceHealth& health) {
  return health.media_bytes_written.has_value() ||
         (health.host_program_pages && health.background_program_pages);
}

std::optional<WriteCounterReading> ReadingOf(const std::string& device,
                                             uint64_t host_bytes,
                                             const DeviceHealth& health) {
  if (!HasMediaWrites(health)) return std::nullopt;
  WriteCounterReading reading;
  reading.device = device;
  reading.host_bytes = host_bytes;
  reading.media_bytes = health.media_bytes_written;
  reading.media_step_bytes = health.media_step_bytes;
  reading.host_pages = health.host_program_pages;
  reading.background_pages = health.background_program_pages;
  reading.counter = health.media_counter;
  return reading;
}

WriteCounterSampler::WriteCounterSampler(std::vector<BlockDevice> disks,
                                         HealthTools tools,
                                         std::chrono::nanoseconds period)
    : disks_(std::move(disks)), tools_(tools), period_(period) {
  if (!disks_.empty()) thread_ = std::thread([this] { Loop(); });
}

WriteCounterSampler::~WriteCounterSampler() { Stop(); }

std::vector<WriteCounterReading> WriteCounterSampler::Take() {
  std::lock_guard lock(mutex_);
  std::vector<WriteCounterReading> taken;
  taken.swap(ready_);
  return taken;
}

void WriteCounterSampler::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void WriteCounterSampler::Loop() {
  auto next = std::chrono::steady_clock::now();
  while (true) {
    {
      std::unique_lock lock(mutex_);
      if (wake_.wait_until(lock, next, [this] { return stopping_; })) return;
    }
    for (const BlockDevice& disk : disks_) {
      // diskstats just before the (slower) health read: both counters of
      // a reading describe nearly the same instant.
      const auto stats = DiskstatsNow();
      const auto found = stats.find(disk.name);
      if (found == stats.end()) continue;
      const DeviceHealth health = ReadDeviceHealth(disk, tools_);
      auto reading =
          ReadingOf(disk.name, found->second.write_sectors * 512, health);
      if (!reading) continue;
      std::lock_guard lock(mutex_);
      ready_.push_back(std::move(*reading));
    }
    next += period_;
  }
}

}  // namespace flashmark
