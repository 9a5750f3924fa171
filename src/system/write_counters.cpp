#include "system/write_counters.h"

#include <fmt/format.h>

#include <array>
#include <optional>

namespace flashmark {
namespace {

using nlohmann::json;

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

// The OCP Datacenter NVMe SSD spec's SMART / Health Information Extended
// log (C0h): 512 bytes, its GUID (AFD514C97C6F4F9CA4F2BFEA2810AFC5) stored
// little-endian at offset 496, as nvme-cli's OCP plugin checks it
// (plugins/ocp/ocp-smart-extended-log.c, scao_guid).
constexpr size_t kOcpPageBytes = 512;
constexpr size_t kOcpGuidOffset = 496;
constexpr std::array<unsigned char, 16> kOcpGuid = {
    0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
    0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF};

uint64_t LittleEndian64(std::string_view bytes, size_t at) {
  uint64_t value = 0;
  for (size_t k = 0; k < 8; ++k) {
    value |= uint64_t{static_cast<unsigned char>(bytes[at + k])} << (8 * k);
  }
  return value;
}

// smartctl's attribute names (its drive database, drivedb.h) whose unit is
// known, and the bytes one count stands for; 0: logical blocks.
struct NamedCounter {
  const char* name;
  uint64_t unit;
};
constexpr std::array<NamedCounter, 4> kHostCounters = {{
    {"Total_LBAs_Written", 0},
    {"Host_Writes_32MiB", 32 * kMiB},
    {"Host_Writes_GiB", kGiB},
    {"Lifetime_Writes_GiB", kGiB},
}};
constexpr std::array<NamedCounter, 9> kMediaCounters = {{
    {"NAND_Writes_1GiB", kGiB},
    {"NAND_Writes_GiB", kGiB},
    {"Total_NAND_Writes_GiB", kGiB},
    {"NAND_GiB_Written", kGiB},
    {"Total_NAND_Prog_Ct_GiB", kGiB},
    {"Lifetime_NAND_Prg_GiB", kGiB},
    {"Flash_Writes_GiB", kGiB},
    {"NAND_Writes_32MiB", 32 * kMiB},
    {"Flash_Writes_32MiB", 32 * kMiB},
}};

const NamedCounter* Find(const auto& table, const std::string& name) {
  for (const NamedCounter& counter : table) {
    if (name == counter.name) return &counter;
  }
  return nullptr;
}

std::optional<uint64_t> Raw(const json& row) {
  if (!row.contains("raw") || !row["raw"].is_object()) return std::nullopt;
  const json& raw = row["raw"];
  if (!raw.contains("value") || !raw["value"].is_number_unsigned()) {
    return std::nullopt;
  }
  return raw["value"].get<uint64_t>();
}

// A name that speaks of NAND or flash writes, known or not.
bool LooksLikeMediaWrites(const std::string& name) {
  const bool media = name.find("NAND") != std::string::npos ||
                     name.find("Nand") != std::string::npos ||
                     name.find("Flash") != std::string::npos;
  return media && (name.find("Writ") != std::string::npos ||
                   name.find("Prg") != std::string::npos ||
                   name.find("Prog") != std::string::npos);
}

}  // namespace

bool IsOcpSmartExtendedLog(std::string_view page) {
  if (page.size() < kOcpPageBytes) return false;
  for (size_t k = 0; k < kOcpGuid.size(); ++k) {
    if (static_cast<unsigned char>(page[kOcpGuidOffset + k]) != kOcpGuid[k]) {
      return false;
    }
  }
  return true;
}

void AddOcpSmartExtendedLog(std::string_view page, DeviceHealth& health) {
  if (page.size() < kOcpPageBytes) {
    health.media_note = fmt::format(
        "log page C0h: {} bytes, not the 512 of the OCP extended SMART log",
        page.size());
    return;
  }
  if (!IsOcpSmartExtendedLog(page)) {
    health.media_note =
        "log page C0h is not the OCP extended SMART log (another GUID): no "
        "media writes";
    return;
  }
  // Physical Media Units Written: bytes, 128 bits little-endian at 0.
  const uint64_t low = LittleEndian64(page, 0);
  const uint64_t high = LittleEndian64(page, 8);
  if (high != 0) {
    health.media_note =
        "OCP Physical Media Units Written is beyond 2^64 bytes: not used";
    return;
  }
  health.media_bytes_written = low;
  health.media_counter = "OCP C0h Physical Media Units Written";
  health.media_step_bytes = 1;
  health.media_note.clear();
}

void AddAtaWriteAttributes(const json& table, uint64_t logical_block_size,
                           DeviceHealth& health) {
  if (!table.is_array()) return;
  std::string unknown;
  for (const json& row : table) {
    if (!row.is_object() || !row.contains("name") || !row["name"].is_string())
      continue;
    const std::string name = row["name"].get<std::string>();
    const auto raw = Raw(row);
    if (!raw) continue;
    const int id = row.value("id", 0);
    if (const NamedCounter* host = Find(kHostCounters, name);
        host && !health.bytes_written) {
      health.bytes_written =
          *raw * (host->unit == 0 ? logical_block_size : host->unit);
    } else if (const NamedCounter* media = Find(kMediaCounters, name);
               media && !health.media_bytes_written) {
      health.media_bytes_written = *raw * media->unit;
      health.media_counter = fmt::format("ATA {} {}", id, name);
      health.media_step_bytes = media->unit;
    } else if (name == "Host_Program_Page_Count") {
      health.host_program_pages = *raw;
    } else if (name == "FTL_Program_Page_Count" ||
               name == "Bckgnd_Program_Page_Cnt") {
      health.background_program_pages = *raw;
    } else if (!media && LooksLikeMediaWrites(name) && unknown.empty()) {
      unknown = fmt::format("ATA {} {}", id, name);
    }
  }
  if (health.host_program_pages && health.background_program_pages &&
      !health.media_bytes_written) {
    health.media_counter =
        "ATA 247/248 host and background program pages (Micron)";
  }
  const bool any =
      health.media_bytes_written ||
      (health.host_program_pages && health.background_program_pages);
  if (!any && !unknown.empty()) {
    health.media_note = unknown + ": unit not known, not used";
  }
}

}  // namespace flashmark
