#include "system/device_health.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "system/external_command.h"
#include "system/write_counters.h"

namespace flashmark {
namespace {

using nlohmann::json;

constexpr auto kToolTimeout = std::chrono::seconds(15);
constexpr uint64_t kNvmeDataUnit =
    uint64_t{512} * 1000;  // bytes per "data unit"

template <typename T>
std::optional<T> Number(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) return std::nullopt;
  const json& value = object[key];
  if (!value.is_number()) return std::nullopt;
  return value.get<T>();
}

// The NVMe log keeps temperatures in kelvin; smartctl converts them.
int Celsius(int value) { return value >= 200 ? value - 273 : value; }

// ATA attribute `id` from smartctl's table, or null.
json Attribute(const json& doc, int id) {
  const json table =
      doc.value("/ata_smart_attributes/table"_json_pointer, json::array());
  for (const json& row : table) {
    if (Number<int>(row, "id") == id) return row;
  }
  return nullptr;
}

// An attribute's raw value.
std::optional<uint64_t> RawValue(const json& row) {
  if (!row.is_object() || !row.contains("raw")) return std::nullopt;
  return Number<uint64_t>(row["raw"], "value");
}

bool SmartCapable(const std::string& transport) {
  return transport.rfind("NVMe", 0) == 0 || transport == "SATA" ||
         transport == "SAS/SCSI" || transport == "USB";
}

// smartctl's own last error message, else the last line it printed.
std::string SmartctlMessage(const json& doc, const ExternalCommandResult& run) {
  if (doc.is_object()) {
    const json messages =
        doc.value("/smartctl/messages"_json_pointer, json::array());
    if (messages.is_array() && !messages.empty() &&
        messages.back().is_object()) {
      const json text = messages.back().value("string", json());
      if (text.is_string()) return text.get<std::string>();
    }
  }
  return run.LastOutputLine();
}

}  // namespace

HealthTools FindHealthTools() {
  return HealthTools{ProgramAvailable("smartctl"), ProgramAvailable("nvme")};
}

std::string HealthToolsNote(const HealthTools& tools) {
  if (tools.smartctl && tools.nvme) return "";
  if (!tools.smartctl && !tools.nvme) {
    return "smartctl not installed, nvme-cli not installed: no SMART or NVMe "
           "health (apt-get install smartmontools nvme-cli)";
  }
  if (!tools.smartctl) {
    return "smartctl not installed: NVMe health only, via nvme-cli "
           "(apt-get install smartmontools)";
  }
  return "nvme-cli not installed: health via smartctl only";
}

DeviceHealth ParseSmartctlJson(const json& doc) {
  DeviceHealth health;
  health.source = "smartctl";
  if (!doc.is_object()) {
    health.unavailable = "smartctl printed no JSON";
    return health;
  }
  const json passed = doc.value("/smart_status/passed"_json_pointer, json());
  if (passed.is_boolean()) health.passed = passed.get<bool>();
  if (doc.contains("power_on_time")) {
    health.power_on_hours = Number<uint64_t>(doc["power_on_time"], "hours");
  }
  if (doc.contains("temperature")) {
    health.temperature_celsius = Number<int>(doc["temperature"], "current");
  }
  if (doc.contains("nvme_smart_health_information_log") &&
      doc["nvme_smart_health_information_log"].is_object()) {
    const json& log = doc["nvme_smart_health_information_log"];
    health.percentage_used = Number<int>(log, "percentage_used");
    health.media_errors = Number<uint64_t>(log, "media_errors");
    if (auto units = Number<uint64_t>(log, "data_units_written")) {
      health.bytes_written = *units * kNvmeDataUnit;
    }
    if (!health.power_on_hours) {
      health.power_on_hours = Number<uint64_t>(log, "power_on_hours");
    }
    health.warning_temperature_minutes =
        Number<uint64_t>(log, "warning_temp_time");
    health.critical_temperature_minutes =
        Number<uint64_t>(log, "critical_comp_time");
    return health;
  }
  if (!doc.contains("ata_smart_attributes")) return health;
  // Normalized "life left" attributes: 100 new, falling with wear.
  for (int id : {231, 233, 177, 202}) {
    const json row = Attribute(doc, id);
    if (row.is_object()) {
      const int left =
          std::clamp(Number<int>(row, "value").value_or(100), 0, 100);
      health.percentage_used = 100 - left;
      break;
    }
  }
  health.media_errors = RawValue(Attribute(doc, 187));  // Reported_Uncorrect
  // Host and media writes by the attribute's name, which carries its unit.
  AddAtaWriteAttributes(
      doc.value("/ata_smart_attributes/table"_json_pointer, json::array()),
      Number<uint64_t>(doc, "logical_block_size").value_or(512), health);
  return health;
}

DeviceHealth ParseNvmeSmartLog(const json& doc) {
  DeviceHealth health;
  health.source = "nvme";
  if (!doc.is_object()) {
    health.unavailable = "nvme smart-log printed no JSON";
    return health;
  }
  if (auto warning = Number<int>(doc, "critical_warning")) {
    health.passed = *warning == 0;
  }
  health.percentage_used = Number<int>(doc, "percent_used");
  health.media_errors = Number<uint64_t>(doc, "media_errors");
  if (auto units = Number<uint64_t>(doc, "data_units_written")) {
    health.bytes_written = *units * kNvmeDataUnit;
  }
  health.power_on_hours = Number<uint64_t>(doc, "power_on_hours");
  health.warning_temperature_minutes =
      Number<uint64_t>(doc, "warning_temp_time");
  health.critical_temperature_minutes =
      Number<uint64_t>(doc, "critical_comp_time");
  const auto t1 = Number<uint64_t>(doc, "thm_temp1_trans_count");
  const auto t2 = Number<uint64_t>(doc, "thm_temp2_trans_count");
  if (t1 || t2)
    health.thermal_throttle_events = t1.value_or(0) + t2.value_or(0);
  if (auto temperature = Number<int>(doc, "temperature")) {
    health.temperature_celsius = Celsius(*temperature);
  }
  return health;
}

namespace {

// NVMe media writes: the OCP extended SMART log (C0h), where the drive
// keeps one; nvme-cli reads it raw. Needs the health read to have worked.
void AddNvmeMediaWrites(const BlockDevice& device, const HealthTools& tools,
                        DeviceHealth& health) {
  if (!health.unavailable.empty() || !tools.nvme) return;
  auto run = RunExternal({"nvme", "get-log", device.path, "--log-id=0xc0",
                          "--log-len=512", "--raw-binary"},
                         kToolTimeout);
  if (!run.ok() || !run->succeeded()) {
    health.media_note = "no OCP extended SMART log (C0h): no media writes";
    return;
  }
  AddOcpSmartExtendedLog(run->output, health);
}

DeviceHealth ReadHealthOnce(const BlockDevice& device,
                            const HealthTools& tools);

}  // namespace

DeviceHealth ReadDeviceHealth(const BlockDevice& device,
                              const HealthTools& tools) {
  DeviceHealth health = ReadHealthOnce(device, tools);
  if (device.transport.rfind("NVMe", 0) == 0) {
    AddNvmeMediaWrites(device, tools, health);
  }
  return health;
}

namespace {

DeviceHealth ReadHealthOnce(const BlockDevice& device,
                            const HealthTools& tools) {
  DeviceHealth health;
  if (device.is_partition()) {
    health.unavailable = "a partition: see its disk " + device.parent;
    return health;
  }
  if (!SmartCapable(device.transport)) {
    health.unavailable =
        fmt::format("no SMART on {} devices", device.transport);
    return health;
  }
  const bool nvme = device.transport.rfind("NVMe", 0) == 0;
  if (tools.smartctl) {
    auto run =
        RunExternal({"smartctl", "--json", "-a", device.path}, kToolTimeout);
    if (!run.ok()) {
      health.unavailable = run.error().message;
      return health;
    }
    const json doc = json::parse(run->output, nullptr, false);
    // Bits 0 and 1 of the status: bad command line, device not opened.
    if (run->signal != 0 || run->exit_status < 0 ||
        (run->exit_status & 3) != 0 || doc.is_discarded()) {
      health.source = "smartctl";
      health.unavailable = fmt::format("smartctl: {}: {}", run->Outcome(),
                                       SmartctlMessage(doc, *run));
      return health;
    }
    return ParseSmartctlJson(doc);
  }
  if (nvme && tools.nvme) {
    auto run = RunExternal({"nvme", "smart-log", "-o", "json", device.path},
                           kToolTimeout);
    if (!run.ok()) {
      health.unavailable = run.error().message;
      return health;
    }
    const json doc = json::parse(run->output, nullptr, false);
    if (!run->succeeded() || doc.is_discarded()) {
      health.source = "nvme";
      health.unavailable = fmt::format("nvme smart-log: {}: {}", run->Outcome(),
                                       run->LastOutputLine());
      return health;
    }
    return ParseNvmeSmartLog(doc);
  }
  health.unavailable =
      nvme ? "smartctl and nvme-cli not installed" : "smartctl not installed";
  return health;
}

}  // namespace

}  // namespace flashmark
