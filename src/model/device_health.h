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
  // tells (system/write_counters.h: the OCP C0h log page, ATA NAND-write
  // attributes known by name). With bytes_written at two instants it gives
  // the write amplification between them. media_counter names the counter
  // ("OCP C0h Physical Media Units Written", "ATA 249 NAND_Writes_1GiB");
  // media_step_bytes is its resolution (1 GiB for NAND_Writes_1GiB).
  std::optional<uint64_t> media_bytes_written;
  std::string media_counter;
  uint64_t media_step_bytes = 0;
  // Micron/Crucial ATA 247 Host_Program_Page_Count and 248
  // FTL_Program_Page_Count (Bckgnd_Program_Page_Cnt): NAND pages the host's
  // writes and the drive's own (garbage collection, wear levelling)
  // programmed; the page size is not told, so they give a ratio
  // ((host + background) / host pages), never bytes.
  std::optional<uint64_t> host_program_pages;
  std::optional<uint64_t> background_program_pages;
  // Why there is no media figure when the device answered ("attribute 249
  // Unkn_CrucialMicron_Attr: meaning unknown"); empty when there is one or
  // nothing suggested one.
  std::string media_note;
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
