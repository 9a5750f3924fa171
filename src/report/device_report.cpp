#include "report/device_report.h"

#include <fmt/format.h>
#include <sys/sysmacros.h>

#include <algorithm>

#include "common/units.h"
#include "document/health_format.h"

namespace flashmark {
namespace {

using nlohmann::json;

std::string OrDash(const std::string& text) {
  return text.empty() ? "-" : text;
}

std::string Fit(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  return text.substr(0, width - 1) + "~";
}

std::string ContentsColumn(const BlockDevice& device) {
  if (!device.probe_error.empty()) return "?";
  std::vector<std::string> types;
  for (const auto& signature : device.signatures)
    types.push_back(signature.type);
  return types.empty() ? "-" : fmt::format("{}", fmt::join(types, ","));
}

std::string MountColumn(const BlockDevice& device) {
  if (device.mounts.empty()) return "-";
  std::string text = device.mounts.front().mount_point;
  if (device.mounts.size() > 1)
    text += fmt::format(" +{}", device.mounts.size() - 1);
  return text;
}

std::string VerdictName(WriteVerdict verdict) {
  switch (verdict) {
    case WriteVerdict::kRefused:
      return "refused";
    case WriteVerdict::kNeedsAllowDestroy:
      return "needs-allow-destroy";
    case WriteVerdict::kAllowed:
      return "allowed";
  }
  return "refused";
}

void PrintDetails(const ListedDevice& listed, std::ostream& out) {
  const BlockDevice& device = listed.device;
  out << fmt::format("{} ({}, {}:{}): {}, {}{}\n", device.path, device.name,
                     major(device.number), minor(device.number),
                     device.is_partition() ? "partition of " + device.parent
                                           : device.transport,
                     FormatBytes(device.capacity_bytes),
                     device.read_only ? ", read-only" : "");
  if (!device.is_partition()) {
    out << fmt::format("  model {}, serial {}, firmware {}\n",
                       OrDash(device.model), OrDash(device.serial),
                       OrDash(device.firmware));
    out << fmt::format(
        "  sectors {} logical / {} physical, {}, NUMA node {}\n",
        device.logical_sector_size, device.physical_sector_size,
        device.rotational ? "rotational" : "non-rotational",
        device.numa_node < 0 ? "-" : std::to_string(device.numa_node));
    out << fmt::format(
        "  queue {}, nr_requests {}, write cache {}, discard {}\n",
        OrDash(device.scheduler), device.nr_requests,
        OrDash(device.write_cache),
        device.discard_supported()
            ? fmt::format("{} granularity, max {}",
                          FormatBytes(device.discard_granularity),
                          FormatBytes(device.discard_max_bytes))
            : "not supported");
  }
  if (!device.detail.empty())
    out << "  " << device.transport << " " << device.detail << "\n";
  if (!device.partitions.empty() || !device.holders.empty() ||
      !device.members.empty()) {
    out << fmt::format(
        "  partitions {}; holders {}; members {}\n",
        OrDash(fmt::format("{}", fmt::join(device.partitions, " "))),
        OrDash(fmt::format("{}", fmt::join(device.holders, " "))),
        OrDash(fmt::format("{}", fmt::join(device.members, " "))));
  }
  for (const auto& signature : device.signatures) {
    out << fmt::format(
        "  signature {} ({}){}{}\n", signature.type, OrDash(signature.usage),
        signature.label.empty() ? "" : ", label " + signature.label,
        signature.uuid.empty() ? "" : ", UUID " + signature.uuid);
  }
  for (const auto& mount : device.mounts) {
    out << fmt::format(
        "  mounted at {} ({}{})\n", mount.mount_point, mount.filesystem,
        mount.mount_options.empty() ? "" : ", " + mount.mount_options);
  }
  const SafetyVerdict& safety = listed.safety;
  if (safety.verdict == WriteVerdict::kRefused) {
    out << "  safe to write: no, " << safety.reason << "\n";
  } else {
    out << fmt::format(
        "  safe to write: only when named, --allow-destroy={} (everything on "
        "it is destroyed)\n",
        device.path);
  }
  for (const auto& finding : safety.findings)
    out << "    found " << finding << "\n";
  if (safety.findings.empty() && device.probed) {
    out << "    found no filesystem, partition table or RAID signature\n";
  }
  if (!device.is_partition()) {
    out << "  " << HealthLine(listed.health) << "\n";
  }
}

json DeviceJson(const ListedDevice& listed) {
  const BlockDevice& device = listed.device;
  json signatures = json::array();
  for (const auto& signature : device.signatures) {
    signatures.push_back({{"type", signature.type},
                          {"usage", signature.usage},
                          {"label", signature.label},
                          {"uuid", signature.uuid}});
  }
  json mounts = json::array();
  for (const auto& mount : device.mounts) {
    mounts.push_back({{"mount_point", mount.mount_point},
                      {"filesystem", mount.filesystem},
                      {"options", mount.mount_options},
                      {"source", mount.source}});
  }
  const SafetyVerdict& safety = listed.safety;
  return {
      {"name", device.name},
      {"path", device.path},
      {"major", major(device.number)},
      {"minor", minor(device.number)},
      {"parent", device.parent.empty() ? json(nullptr) : json(device.parent)},
      {"transport", device.transport},
      {"model", device.model},
      {"serial", device.serial},
      {"firmware", device.firmware},
      {"capacity_bytes", device.capacity_bytes},
      {"logical_sector_size", device.logical_sector_size},
      {"physical_sector_size", device.physical_sector_size},
      {"rotational", device.rotational},
      {"read_only", device.read_only},
      {"scheduler", device.scheduler},
      {"nr_requests", device.nr_requests},
      {"write_cache", device.write_cache},
      {"discard",
       {{"supported", device.discard_supported()},
        {"granularity_bytes", device.discard_granularity},
        {"max_bytes", device.discard_max_bytes}}},
      {"numa_node",
       device.numa_node < 0 ? json(nullptr) : json(device.numa_node)},
      {"detail", device.detail},
      {"partitions", device.partitions},
      {"holders", device.holders},
      {"members", device.members},
      {"signatures_probed", device.probed},
      {"signatures", signatures},
      {"probe_error",
       device.probe_error.empty() ? json(nullptr) : json(device.probe_error)},
      {"mounts", mounts},
      {"safe_to_write",
       {{"verdict", VerdictName(safety.verdict)},
        {"reason", safety.reason},
        {"brief", safety.brief},
        {"findings", safety.findings},
        {"hint", safety.hint}}},
      {"health", HealthJson(listed.health)},
  };
}

}  // namespace

std::string SafetyColumn(const SafetyVerdict& verdict) {
  switch (verdict.verdict) {
    case WriteVerdict::kRefused:
      return "no: " + verdict.brief;
    case WriteVerdict::kNeedsAllowDestroy:
      return "with --allow-destroy";
    case WriteVerdict::kAllowed:
      return "yes";
  }
  return "no";
}

void PrintDeviceTable(const DeviceListing& listing, std::ostream& out) {
  struct Row {
    std::string cells[8];
  };
  std::vector<Row> rows = {{{"NAME", "SIZE", "TYPE", "MODEL", "SCHED",
                             "CONTENTS", "MOUNTED", "SAFE TO WRITE"}}};
  for (const auto& listed : listing.devices) {
    const BlockDevice& device = listed.device;
    rows.push_back({{(device.is_partition() ? "  " : "") + device.name,
                     FormatBytes(device.capacity_bytes),
                     device.is_partition() ? "part" : device.transport,
                     OrDash(device.model), OrDash(device.scheduler),
                     ContentsColumn(device), MountColumn(device),
                     SafetyColumn(listed.safety)}});
  }
  // Widest cell per column, capped so a row stays under ~130 columns.
  constexpr size_t kCaps[8] = {16, 10, 9, 22, 12, 14, 22, 30};
  size_t widths[8] = {};
  for (const auto& row : rows) {
    for (int i = 0; i < 8; ++i) {
      widths[i] = std::min(kCaps[i], std::max(widths[i], row.cells[i].size()));
    }
  }
  for (const auto& row : rows) {
    std::string line;
    for (int i = 0; i < 8; ++i) {
      const std::string cell = Fit(row.cells[i], widths[i]);
      line += i == 7 ? cell : fmt::format("{:<{}}  ", cell, widths[i]);
    }
    out << line << "\n";
  }
  if (listing.devices.empty()) out << "(no block devices with a size)\n";
  out << "\"with --allow-destroy\": writable only when named exactly, e.g. "
         "--allow-destroy=/dev/NAME; everything on it is destroyed\n";
  if (listing.empty_devices > 0) {
    out << fmt::format(
        "{} empty devices not shown (unattached loop devices, empty zram)\n",
        listing.empty_devices);
  }
  const std::string note = HealthToolsNote(listing.tools);
  if (!note.empty()) out << "health: " << note << "\n";
  for (const auto& listed : listing.devices) {
    out << "\n";
    PrintDetails(listed, out);
  }
}

json DeviceListingJson(const DeviceListing& listing) {
  json devices = json::array();
  for (const auto& listed : listing.devices)
    devices.push_back(DeviceJson(listed));
  const std::string note = HealthToolsNote(listing.tools);
  return {{"schema", kDevicesSchemaName},
          {"schema_version", kDevicesSchemaVersion},
          {"health_tools",
           {{"smartctl", listing.tools.smartctl},
            {"nvme", listing.tools.nvme},
            {"note", note}}},
          {"empty_devices_not_listed", listing.empty_devices},
          {"devices", devices}};
}

}  // namespace flashmark
