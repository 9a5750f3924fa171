#include "engine/nvme_generic.h"

#include <fmt/format.h>
#include <sys/sysmacros.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace flashmark {
namespace {

namespace fs = std::filesystem;

constexpr uint8_t kNvmeWrite = 0x01;
constexpr uint8_t kNvmeRead = 0x02;

std::string ReadFirstLine(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

uint64_t ReadNumber(const fs::path& path) {
  const std::string text = ReadFirstLine(path);
  return text.empty() ? 0 : std::strtoull(text.c_str(), nullptr, 10);
}

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
  const fs::path block = fs::path("/sys/block") / generic.block_name;
  unsigned block_major = 0, block_minor = 0;
  if (std::sscanf(ReadFirstLine(block / "dev").c_str(), "%u:%u", &block_major,
                  &block_minor) != 2) {
    return std::nullopt;
  }
  generic.block_number = makedev(block_major, block_minor);
  generic.lba_bytes =
      static_cast<uint32_t>(ReadNumber(block / "queue" / "logical_block_size"));
  generic.capacity_bytes = ReadNumber(block / "size") * 512;
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
