// SMART and NVMe health parsed from the tools' JSON (shapes as smartctl
// 7.3 and nvme-cli 2.x print them); the tools themselves are not needed.
#include "system/device_health.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

using nlohmann::json;

TEST(DeviceHealth, SmartctlNvme) {
  const DeviceHealth health = ParseSmartctlJson(json::parse(R"({
    "smart_status": {"passed": true},
    "power_on_time": {"hours": 1200},
    "temperature": {"current": 36},
    "nvme_smart_health_information_log": {
      "percentage_used": 7, "media_errors": 2,
      "data_units_written": 1000000, "power_on_hours": 1200}})"));
  EXPECT_EQ(health.source, "smartctl");
  EXPECT_TRUE(health.unavailable.empty());
  EXPECT_EQ(health.passed, true);
  EXPECT_EQ(health.percentage_used, 7);
  EXPECT_EQ(health.media_errors, 2u);
  EXPECT_EQ(health.bytes_written, 512000000000u);  // units of 1000 x 512 B
  EXPECT_EQ(health.power_on_hours, 1200u);
  EXPECT_EQ(health.temperature_celsius, 36);
}

TEST(DeviceHealth, SmartctlAtaAttributes) {
  const DeviceHealth health = ParseSmartctlJson(json::parse(R"({
    "smart_status": {"passed": false},
    "logical_block_size": 512,
    "ata_smart_attributes": {"table": [
      {"id": 5, "name": "Reallocated_Sector_Ct", "value": 100, "raw": {"value": 0}},
      {"id": 177, "name": "Wear_Leveling_Count", "value": 93, "raw": {"value": 70}},
      {"id": 187, "name": "Reported_Uncorrect", "value": 100, "raw": {"value": 4}},
      {"id": 241, "name": "Total_LBAs_Written", "value": 99, "raw": {"value": 2048}}]}})"));
  EXPECT_EQ(health.passed, false);
  EXPECT_EQ(health.percentage_used, 7);
  EXPECT_EQ(health.media_errors, 4u);
  EXPECT_EQ(health.bytes_written, 2048u * 512);
  EXPECT_FALSE(health.temperature_celsius.has_value());
}

TEST(DeviceHealth, NvmeCliSmartLogInKelvin) {
  const DeviceHealth health = ParseNvmeSmartLog(json::parse(R"({
    "critical_warning": 0, "temperature": 310, "percent_used": 12,
    "data_units_written": 10, "power_on_hours": 5, "media_errors": 0})"));
  EXPECT_EQ(health.source, "nvme");
  EXPECT_EQ(health.passed, true);
  EXPECT_EQ(health.temperature_celsius, 37);
  EXPECT_EQ(health.percentage_used, 12);
  EXPECT_EQ(health.bytes_written, 5120000u);
  EXPECT_EQ(health.media_errors, 0u);
}

TEST(DeviceHealth, AbsentToolsAndDevicesWithoutSmartAreSaidPlainly) {
  BlockDevice nvme;
  nvme.name = "nvme0n1";
  nvme.path = "/dev/nvme0n1";
  nvme.transport = "NVMe";
  EXPECT_EQ(ReadDeviceHealth(nvme, HealthTools{}).unavailable,
            "smartctl and nvme-cli not installed");
  BlockDevice sata = nvme;
  sata.transport = "SATA";
  EXPECT_EQ(ReadDeviceHealth(sata, HealthTools{}).unavailable,
            "smartctl not installed");
  BlockDevice loop = nvme;
  loop.transport = "loop";
  EXPECT_EQ(ReadDeviceHealth(loop, HealthTools{true, true}).unavailable,
            "no SMART on loop devices");
  EXPECT_NE(HealthToolsNote(HealthTools{}).find("smartctl not installed"),
            std::string::npos);
  EXPECT_EQ(HealthToolsNote(HealthTools{true, true}), "");
}

TEST(DeviceHealth, GarbageIsNotACrash) {
  EXPECT_FALSE(ParseSmartctlJson(json("text")).unavailable.empty());
  const DeviceHealth odd = ParseSmartctlJson(json::parse(
      R"({"smart_status": {}, "ata_smart_attributes": {"table": [{"id": "x"}, 3]}})"));
  EXPECT_FALSE(odd.passed.has_value());
  EXPECT_FALSE(odd.percentage_used.has_value());
}

}  // namespace
}  // namespace flashmark
