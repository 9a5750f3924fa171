// DeviceHealth: what SMART (smartctl) or the NVMe SMART log said about a
// disk: wear, media errors, data written, power-on hours, temperature.
// Plain data; system/device_health.h reads it, `devices` lists it and
// every run records it for the disks under its targets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace flashmark {

struct DeviceHealth {
  std::string source;          // "smartctl", "nvme"; empty when none ran
  std::string unavailable;     // why there is no health (plain words)
  std::optional<bool> passed;  // overall self-assessment
  std::optional<int> percentage_used;     // wear: 0 new, 100 worn out
  std::optional<uint64_t> media_errors;   // NVMe media errors, ATA 187
  std::optional<uint64_t> bytes_written;  // host writes over the life
  std::optional<uint64_t> power_on_hours;
  std::optional<int> temperature_celsius;
};

}  // namespace flashmark
