// The write counters of a disk's health, beside what device_health.h reads:
// what the host wrote as the device counts it and what its flash (media)
// was written, from smartctl's ATA attribute table by the attribute's name
// (smartctl names each attribute from its drive database, so the name
// carries the unit: Host_Writes_32MiB, NAND_Writes_1GiB), and from the raw
// OCP SMART / Health Information Extended log page (log C0h of the OCP
// Datacenter NVMe SSD spec: Physical Media Units Written, a 128-bit byte
// count at offset 0; the page is known by its GUID at offset 496). An
// attribute or page not in these tables is a note, never a guess. Pure;
// thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "model/device_health.h"

namespace flashmark {

// The bytes of log page C0h (at least 512 of them) are those of the OCP
// extended SMART log: its GUID at offset 496 says so.
bool IsOcpSmartExtendedLog(std::string_view page);

// Sets health.media_bytes_written, media_counter and media_step_bytes from
// the raw C0h page (`nvme get-log DEV --log-id=0xc0 --log-len=512
// --raw-binary`); when the page is short, another vendor's or beyond 64
// bits, leaves them and says why in health.media_note.
void AddOcpSmartExtendedLog(std::string_view page, DeviceHealth& health);

// Sets the host and media write counters from smartctl's
// ata_smart_attributes table (rows with "id", "name", "raw": {"value"}):
// host bytes from Total_LBAs_Written (times `logical_block_size`),
// Host_Writes_32MiB, Host_Writes_GiB or Lifetime_Writes_GiB; media bytes
// from NAND_Writes_1GiB and the other NAND/flash write counters of known
// unit; Micron's Host_Program_Page_Count and FTL_Program_Page_Count (or
// Bckgnd_Program_Page_Cnt) as pages. A NAND or flash write attribute whose
// unit is not known goes to health.media_note.
void AddAtaWriteAttributes(const nlohmann::json& table,
                           uint64_t logical_block_size, DeviceHealth& health);

}  // namespace flashmark
