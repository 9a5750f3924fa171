// The `flashmark devices` views of a device listing: a table that fits
// 100-140 columns (one row per disk and partition), then a details block
// per device (identity, sectors, queue, holders/members/partitions,
// signatures, mounts, the full safety verdict, health); and a versioned
// JSON document ("schema": "flashmark.devices"). Plain data in, text out;
// writes only to the injected stream.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "system/block_device_info.h"
#include "system/device_health.h"
#include "system/device_safety.h"

namespace flashmark {

inline constexpr const char* kDevicesSchemaName = "flashmark.devices";
inline constexpr int kDevicesSchemaVersion = 1;

struct ListedDevice {
  BlockDevice device;
  SafetyVerdict safety;  // judged without --allow-destroy
  DeviceHealth health;
};

struct DeviceListing {
  std::vector<ListedDevice> devices;  // disks, each followed by partitions
  int empty_devices = 0;              // size-0 devices not listed
  HealthTools tools;
};

void PrintDeviceTable(const DeviceListing& listing, std::ostream& out);

nlohmann::json DeviceListingJson(const DeviceListing& listing);

// "no: mounted", "no: holds /", "with --allow-destroy": the table's
// verdict column.
std::string SafetyColumn(const SafetyVerdict& verdict);

}  // namespace flashmark
