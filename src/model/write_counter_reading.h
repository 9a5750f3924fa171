// WriteCounterReading: one reading, taken during a run and off the IO
// path, of a whole disk's lifetime write counters: the bytes the block
// layer has written to it since boot (/proc/diskstats, read just before
// SMART) and what SMART or the NVMe log said its flash (media) had been
// written. The interval during which a reading completed carries it
// (IntervalTelemetry::write_counters); analysis/write_amplification.h sets
// the differences between readings against each other. Plain data; bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace flashmark {

struct WriteCounterReading {
  std::string device;       // the whole disk, kernel name ("nvme0n1")
  uint64_t host_bytes = 0;  // diskstats sectors written x 512, since boot
  // DeviceHealth's media figures at this instant (model/device_health.h).
  std::optional<uint64_t> media_bytes;
  uint64_t media_step_bytes = 0;
  std::optional<uint64_t> host_pages;        // Micron ATA 247
  std::optional<uint64_t> background_pages;  // Micron ATA 248
  std::string counter;  // which counter ("OCP C0h Physical Media ...")
};

}  // namespace flashmark
