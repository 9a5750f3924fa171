// Device health from SMART (smartctl) or the NVMe SMART log (nvme-cli):
// wear, media errors, data written, power-on hours, temperature. The
// tools run by argv with a timeout (system/external_command.h); smartctl
// is preferred (`smartctl --json -a DEV`), `nvme smart-log -o json DEV`
// serves NVMe devices when smartctl is missing. When neither can say
// anything the reason is kept in plain words ("smartctl not installed").
//
// Only whole disks of the transports that carry SMART (NVMe, SATA,
// SAS/SCSI, USB) are asked. Blocking (each tool gets 15 s); thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "model/device_health.h"
#include "system/block_device_info.h"

namespace flashmark {

// Which health tools are installed, for the one line that says so.
struct HealthTools {
  bool smartctl = false;
  bool nvme = false;
};
HealthTools FindHealthTools();

// "smartctl not installed, nvme-cli not installed (apt-get install
// smartmontools nvme-cli)"; empty when both are installed.
std::string HealthToolsNote(const HealthTools& tools);

// Runs the tools on `device` (a whole disk); never an error: what went
// wrong is in `unavailable`.
DeviceHealth ReadDeviceHealth(const BlockDevice& device,
                              const HealthTools& tools);

// Parses `smartctl --json -a` output (NVMe or ATA). Pure.
DeviceHealth ParseSmartctlJson(const nlohmann::json& doc);
// Parses `nvme smart-log -o json` output. Pure.
DeviceHealth ParseNvmeSmartLog(const nlohmann::json& doc);

}  // namespace flashmark
