// WriteCounterSampler: reads the write counters of whole disks during a
// run, off the IO path and off the sampler thread: its own thread, every
// `period` (60 s by default; the first reading at once), reads
// /proc/diskstats (the bytes written to the disk since boot) and then the
// disk's health (system/device_health.h: smartctl, nvme-cli, the OCP C0h
// page), and keeps a WriteCounterReading for each disk whose health gave a
// media figure. SMART tools take tens of milliseconds to seconds and an
// ATA SMART command waits for the drive's queue to drain, so the period is
// long; analysis/write_amplification.h forms the windows.
//
// Threading: Take() may be called from any one thread (the run's sampler
// thread) while the reader thread runs; Stop() and the destructor join it
// (a tool in flight finishes first, at most its 15 s timeout).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "model/device_health.h"
#include "model/write_counter_reading.h"
#include "system/block_device_info.h"
#include "system/device_health.h"

namespace flashmark {

inline constexpr std::chrono::seconds kWriteCounterPeriod{60};

// A reading from a health read and the disk's diskstats write bytes; none
// when the health has no media figure.
std::optional<WriteCounterReading> ReadingOf(const std::string& device,
                                             uint64_t host_bytes,
                                             const DeviceHealth& health);

// Whether a health read gave a media figure (bytes or Micron's pages).
bool HasMediaWrites(const DeviceHealth& health);

class WriteCounterSampler {
 public:
  WriteCounterSampler(std::vector<BlockDevice> disks, HealthTools tools,
                      std::chrono::nanoseconds period = kWriteCounterPeriod);
  ~WriteCounterSampler();
  WriteCounterSampler(const WriteCounterSampler&) = delete;
  WriteCounterSampler& operator=(const WriteCounterSampler&) = delete;

  // The readings completed since the previous call.
  std::vector<WriteCounterReading> Take();
  void Stop();

 private:
  void Loop();

  std::vector<BlockDevice> disks_;
  HealthTools tools_;
  std::chrono::nanoseconds period_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<WriteCounterReading> ready_;
  std::thread thread_;
};

}  // namespace flashmark
