#include "system/host_limits.h"

#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "common/sysfs_text.h"

namespace flashmark {
namespace {

// "MemAvailable:   12345 kB" -> bytes; 0 when missing.
uint64_t MeminfoBytes(const std::string& key) {
  std::ifstream in("/proc/meminfo");
  std::string name;
  uint64_t kib = 0;
  std::string unit;
  while (in >> name >> kib >> unit) {
    if (name == key + ":") return kib * 1024;
  }
  return 0;
}

uint64_t Limit(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
    return 0;
  }
  return static_cast<uint64_t>(limit.rlim_cur);
}

// The capability bit in the effective set of /proc/self/status (CapEff).
bool HasCapability(int bit) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("CapEff:", 0) != 0) continue;
    const uint64_t mask = std::stoull(line.substr(7), nullptr, 16);
    return ((mask >> bit) & 1) != 0;
  }
  return false;
}

// Threads of processes owned by this user (what RLIMIT_NPROC counts).
uint64_t UserThreads() {
  uint64_t threads = 0;
  const uid_t user = getuid();
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return 0;
  while (const dirent* entry = readdir(proc)) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    const std::string dir = std::string("/proc/") + entry->d_name;
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0 || st.st_uid != user) continue;
    std::ifstream status(dir + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("Threads:", 0) == 0) {
        threads += std::stoull(line.substr(8));
        break;
      }
    }
  }
  closedir(proc);
  return threads;
}

// The directory of this process's cgroup for `controller`: v2's unified
// hierarchy ("0::/path") or v1's ("N:memory,...:/path"); "" when none.
std::string CgroupDirectory(const std::string& controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string unified;
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string list = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (list.empty()) unified = "/sys/fs/cgroup" + path;
    for (size_t at = 0; at <= list.size();) {
      const size_t comma = std::min(list.find(',', at), list.size());
      if (list.substr(at, comma - at) == controller) {
        return "/sys/fs/cgroup/" + controller + path;
      }
      at = comma + 1;
    }
  }
  return unified;
}

// A cgroup file's number; 0 for "max", a missing file or a v1 "no limit"
// (a page-rounded 2^63).
uint64_t CgroupNumber(const std::string& path) {
  const uint64_t value = ReadSysfsNumber(path, 0);
  return value >= (uint64_t{1} << 62) ? 0 : value;
}

}  // namespace

HostLimits ReadHostLimits() {
  constexpr int kCapIpcLock = 14;
  HostLimits limits;
  limits.memory_total_bytes = MeminfoBytes("MemTotal");
  limits.memory_available_bytes = MeminfoBytes("MemAvailable");
  if (const std::string memory = CgroupDirectory("memory"); !memory.empty()) {
    const bool v1 = memory.find("/sys/fs/cgroup/memory") == 0;
    const uint64_t limit =
        CgroupNumber(memory + (v1 ? "/memory.limit_in_bytes" : "/memory.max"));
    const uint64_t used = CgroupNumber(
        memory + (v1 ? "/memory.usage_in_bytes" : "/memory.current"));
    if (limit != 0) {
      const uint64_t left = limit > used ? limit - used : 0;
      limits.memory_available_bytes =
          std::min(limits.memory_available_bytes, left);
      limits.memory_total_bytes = std::min(limits.memory_total_bytes, limit);
    }
  }

  // "0.10 0.20 0.30 2/345 6789": 345 threads exist now.
  const std::string load = ReadSysfsLine("/proc/loadavg");
  const auto slash = load.find('/');
  const uint64_t threads_now =
      slash == std::string::npos ? 0 : std::stoull(load.substr(slash + 1));
  if (const uint64_t most = ReadSysfsNumber("/proc/sys/kernel/threads-max")) {
    limits.threads_left.push_back({most > threads_now ? most - threads_now : 0,
                                   "the kernel's limit (kernel.threads-max)"});
  }
  if (const std::string pids = CgroupDirectory("pids"); !pids.empty()) {
    if (const uint64_t most = CgroupNumber(pids + "/pids.max")) {
      const uint64_t used = CgroupNumber(pids + "/pids.current");
      limits.threads_left.push_back({most > used ? most - used : 0,
                                     "the pids cgroup's limit (pids.max)"});
    }
  }
  // Not enforced for root (nor with CAP_SYS_ADMIN or CAP_SYS_RESOURCE).
  if (const uint64_t most = Limit(RLIMIT_NPROC); most != 0 && getuid() != 0) {
    const uint64_t used = UserThreads();
    limits.threads_left.push_back({most > used ? most - used : 0,
                                   "this user's process limit (ulimit -u)"});
  }
  limits.memlock_bytes = Limit(RLIMIT_MEMLOCK);
  limits.can_lock_memory = HasCapability(kCapIpcLock);
  // AIO contexts' events, counted system-wide against fs.aio-max-nr.
  if (const uint64_t most = ReadSysfsNumber("/proc/sys/fs/aio-max-nr")) {
    const uint64_t used = ReadSysfsNumber("/proc/sys/fs/aio-nr");
    limits.aio_events_left = most > used ? most - used : 0;
  }
  return limits;
}

}  // namespace flashmark
