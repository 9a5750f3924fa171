// `flashmark devices [--json] [--db FILE] [--no-health]`: the block
// devices attached (sysfs, /proc, libblkid), what is on each and whether
// flashmark would write it (system/device_safety.h), with SMART / NVMe
// health where smartctl or nvme-cli is installed. Reads only.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace flashmark {

struct DevicesOptions {
  bool json = false;
  bool no_health = false;
  std::optional<std::string> db;  // protected like a run's database
};

CLI::App* AddDevicesCommand(CLI::App& app, DevicesOptions& options);
int ExecuteDevices(const DevicesOptions& options);

}  // namespace flashmark
