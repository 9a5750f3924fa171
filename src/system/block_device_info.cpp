#include "system/block_device_info.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace flashmark {
namespace {

std::string ReadLine(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\n')) line.pop_back();
  return line;
}

// The first of `names` that exists under `dir` and is not empty.
std::string FirstOf(const std::filesystem::path& dir,
                    std::initializer_list<const char*> names) {
  for (const char* name : names) {
    std::string value = ReadLine(dir / name);
    if (!value.empty()) return value;
  }
  return "";
}

// "none [mq-deadline] kyber" -> "mq-deadline"
std::string ActiveScheduler(const std::string& line) {
  const auto open = line.find('[');
  const auto close = line.find(']');
  if (open == std::string::npos || close == std::string::npos) return line;
  return line.substr(open + 1, close - open - 1);
}

}  // namespace

void DescribeBlockDevice(TargetInfo& info) {
  if (info.device.empty()) return;
  struct stat st;
  if (stat(info.device.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return;
  std::error_code error;
  std::filesystem::path sys = std::filesystem::canonical(
      fmt::format("/sys/dev/block/{}:{}", major(st.st_rdev), minor(st.st_rdev)),
      error);
  if (error) return;
  if (std::filesystem::exists(sys / "partition")) sys = sys.parent_path();
  const std::filesystem::path device = sys / "device";
  info.model = FirstOf(device, {"model", "name"});
  info.serial = FirstOf(device, {"serial", "vpd_pg80"});
  if (info.serial.empty()) info.serial = ReadLine(sys / "serial");
  info.firmware = FirstOf(device, {"firmware_rev", "rev"});
  const std::string sectors = ReadLine(sys / "size");
  if (!sectors.empty()) info.capacity_bytes = std::stoull(sectors) * 512;
  info.rotational = ReadLine(sys / "queue" / "rotational") == "1";
  info.scheduler = ActiveScheduler(ReadLine(sys / "queue" / "scheduler"));
  const std::string depth = ReadLine(sys / "queue" / "nr_requests");
  if (!depth.empty()) info.queue_depth = std::stoi(depth);
  info.device_name = sys.filename().string();
}

}  // namespace flashmark
