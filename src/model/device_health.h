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
  // What the flash itself was written (NAND/media writes), where the device
  // tells: ATA attribute 249 NAND_Writes_1GiB. With bytes_written at two
  // instants it gives the write amplification between them.
  std::optional<uint64_t> media_bytes_written;
  // NVMe: minutes spent above the warning (and the critical) composite
  // temperature, and thermal management transitions (throttling events,
  // T1 + T2; nvme-cli only), over the life.
  std::optional<uint64_t> warning_temperature_minutes;
  std::optional<uint64_t> critical_temperature_minutes;
  std::optional<uint64_t> thermal_throttle_events;
  std::optional<uint64_t> power_on_hours;
  std::optional<int> temperature_celsius;
};

}  // namespace flashmark
