#include "app/devices_command.h"

#include <iostream>

#include "common/json_text.h"
#include "report/device_report.h"
#include "store/run_store.h"
#include "system/device_inventory.h"

namespace flashmark {

CLI::App* AddDevicesCommand(CLI::App& app, DevicesOptions& o) {
  CLI::App* devices = app.add_subcommand(
      "devices",
      "List block devices: what is on them, and whether flashmark would "
      "write them");
  devices->add_flag("--json", o.json, "write the listing as JSON on stdout");
  devices->add_flag("--no-health", o.no_health,
                    "do not run smartctl / nvme-cli");
  devices->add_option_function<std::string>(
      "--db", [&o](const std::string& value) { o.db = value; },
      "results database to protect [$FLASHMARK_DB or ./flashmark.db]");
  return devices;
}

int ExecuteDevices(const DevicesOptions& options) {
  const DeviceInventory inventory = ReadDeviceInventory();
  const SafetyContext context =
      CaptureSafetyContext(options.db.value_or(DefaultDatabasePath()));
  DeviceListing listing;
  listing.empty_devices = inventory.empty_devices;
  listing.tools = FindHealthTools();
  for (const auto& device : inventory.devices) {
    ListedDevice listed{
        device, JudgeWrite(inventory, device, false, context), {}};
    if (options.no_health) {
      listed.health.unavailable = "not asked (--no-health)";
    } else {
      listed.health = ReadDeviceHealth(device, listing.tools);
    }
    listing.devices.push_back(std::move(listed));
  }
  if (options.json) {
    std::cout << JsonText(DeviceListingJson(listing), 2) << "\n";
  } else {
    PrintDeviceTable(listing, std::cout);
  }
  return 0;
}

}  // namespace flashmark
