#include "engine/nvme_generic.h"

#include <fmt/format.h>
#include <sys/sysmacros.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common/sysfs_text.h"

namespace flashmark {
namespace {

namespace fs = std::filesystem;

constexpr uint8_t kNvmeWrite = 0x01;
constexpr uint8_t kNvmeRead = 0x02;

}  // namespace

std::optional<NvmeGeneric> DescribeNvmeGeneric(dev_t number) {
  std::error_code ec;
  const fs::path device = fs::canonical(
      fmt::format("/sys/dev/char/{}:{}", major(number), minor(number)), ec);
  if (ec) return std::nullopt;
  const std::string name = device.filename().string();
  const std::string subsystem =
      fs::read_symlink(device / "subsystem", ec).filename().string();
  if (ec || subsystem != "nvme-generic" || !name.starts_with("ng")) {
    return std::nullopt;
  }
  NvmeGeneric generic;
  generic.name = name;
  generic.block_name = "nvme" + name.substr(2);
  // The name is only a guess (with native multipath a private namespace's
  // ngCnN and nvmeSnN differ): the disk must sit beside the character
  // device, under the same controller or subsystem.
  const fs::path block =
      fs::canonical(fs::path("/sys/block") / generic.block_name, ec);
  if (ec || block.parent_path() != device.parent_path()) return std::nullopt;
  unsigned block_major = 0, block_minor = 0;
  if (std::sscanf(ReadSysfsLine(block / "dev").c_str(), "%u:%u", &block_major,
                  &block_minor) != 2) {
    return std::nullopt;
  }
  generic.block_number = makedev(block_major, block_minor);
  generic.lba_bytes = static_cast<uint32_t>(
      ReadSysfsNumber(block / "queue" / "logical_block_size"));
  generic.capacity_bytes = ReadSysfsNumber(block / "size") * 512;
  generic.max_transfer_bytes =
      ReadSysfsNumber(block / "queue" / "max_hw_sectors_kb") * 1024;
  generic.nsid = static_cast<uint32_t>(ReadSysfsNumber(block / "nsid"));
  if (generic.lba_bytes == 0) return std::nullopt;
  return generic;
}

bool BuildNvmeIo(const IoUnit& unit, uint32_t nsid, uint32_t lba_bytes,
                 nvme_uring_cmd& command) {
  if (lba_bytes == 0 || unit.length == 0 || unit.offset % lba_bytes != 0 ||
      unit.length % lba_bytes != 0) {
    return false;
  }
  const uint64_t first = unit.offset / lba_bytes;
  const uint64_t blocks = unit.length / lba_bytes;
  if (blocks > 65536) return false;  // NLB is 16 bits, zero-based
  std::memset(&command, 0, sizeof(command));
  command.opcode = unit.op == IoOp::kRead ? kNvmeRead : kNvmeWrite;
  command.nsid = nsid;
  command.addr = reinterpret_cast<uint64_t>(unit.buffer);
  command.data_len = unit.length;
  command.cdw10 = static_cast<uint32_t>(first & 0xffffffffu);
  command.cdw11 = static_cast<uint32_t>(first >> 32);
  command.cdw12 = static_cast<uint32_t>(blocks - 1);
  return true;
}

}  // namespace flashmark
