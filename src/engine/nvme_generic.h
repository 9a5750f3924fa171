// NVMe generic character devices (/dev/ngXnY, Linux 5.19+), the targets of
// the io_uring_cmd engine: which block device names the same namespace
// (/dev/nvmeXnY, whose safety rules apply to it), its LBA size and
// capacity (sysfs), and the NVMe read/write command one IoUnit becomes.
// Reads sysfs only; thread-safe.
#pragma once

#include <linux/nvme_ioctl.h>
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/io_engine.h"

namespace flashmark {

struct NvmeGeneric {
  std::string name;        // "ng0n1"
  std::string block_name;  // "nvme0n1": the same namespace as a block device
  dev_t block_number = 0;  // its major:minor
  uint32_t lba_bytes = 0;  // queue/logical_block_size
  uint64_t capacity_bytes = 0;
  uint64_t max_transfer_bytes = 0;  // queue/max_hw_sectors_kb; 0 unknown
  uint32_t nsid = 0;                // the disk's namespace id (sysfs)
};

// What to do when a target is not one (for the engine's and the target
// checks' errors).
inline constexpr std::string_view kNvmeGenericHint =
    "io_uring_cmd sends NVMe commands to /dev/ngXnY (Linux 5.19+, one per "
    "NVMe namespace; ls /dev/ng*); for files and block devices use "
    "--engine io_uring";

// The namespace behind character device `number`; nullopt when it is not
// an NVMe generic device, or sysfs does not show its disk beside it. The
// caller checks that NVME_IOCTL_ID on the opened node gives `nsid`.
std::optional<NvmeGeneric> DescribeNvmeGeneric(dev_t number);

// The NVMe Read (0x02) or Write (0x01) of `unit` on namespace `nsid` with
// LBAs of `lba_bytes`; false when the unit is not whole LBAs.
bool BuildNvmeIo(const IoUnit& unit, uint32_t nsid, uint32_t lba_bytes,
                 nvme_uring_cmd& command);

}  // namespace flashmark
