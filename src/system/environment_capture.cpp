#include "system/environment_capture.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "common/sysfs_text.h"
#include "system/mount_table.h"

namespace flashmark {
namespace {

// The value after "key<spaces>:" on the first line starting with `key`.
std::string FirstValue(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

// Each distinct cpufreq governor over the CPUs, "/"-joined in CPU order;
// "" without cpufreq.
std::string CpuGovernors() {
  namespace fs = std::filesystem;
  std::vector<std::string> seen;
  std::error_code ec;
  for (int cpu = 0;; ++cpu) {
    const fs::path dir =
        fs::path("/sys/devices/system/cpu") / ("cpu" + std::to_string(cpu));
    if (!fs::exists(dir, ec)) break;
    const std::string governor =
        ReadSysfsLine(dir / "cpufreq" / "scaling_governor");
    if (governor.empty()) continue;
    if (std::find(seen.begin(), seen.end(), governor) == seen.end()) {
      seen.push_back(governor);
    }
  }
  std::string text;
  for (const std::string& governor : seen) {
    text += (text.empty() ? "" : "/") + governor;
  }
  return text;
}

}  // namespace

Environment CaptureHostEnvironment() {
  Environment env;
  utsname names;
  if (uname(&names) == 0) {
    env.host = names.nodename;
    env.kernel = std::string(names.sysname) + " " + names.release;
  }
  env.cpu_model = FirstValue("/proc/cpuinfo", "model name");
  env.cpu_count = static_cast<int>(std::thread::hardware_concurrency());
  const std::string mem_kib = FirstValue("/proc/meminfo", "MemTotal");
  env.memory_bytes = mem_kib.empty() ? 0 : std::stoull(mem_kib) * 1024;
  env.cpu_governor = CpuGovernors();
  if (env.cpu_governor.empty()) env.cpu_governor = "none";  // no cpufreq
  return env;
}

std::optional<BlockDevice> DescribeMount(TargetInfo& info) {
  auto mount = FindMountFor(info.path);
  if (!mount) return std::nullopt;
  info.filesystem = mount->filesystem;
  info.mount_point = mount->mount_point;
  info.mount_options = mount->mount_options;
  info.device = mount->source;
  return DescribeBlockDevice(info);
}

}  // namespace flashmark
