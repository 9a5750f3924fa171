#include "common/cpu_list.h"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <charconv>

namespace flashmark {
namespace {

constexpr int kMaxCpu = CPU_SETSIZE - 1;

bool ParseCpu(std::string_view text, int& cpu) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, cpu);
  return ec == std::errc() && ptr == end && !text.empty() && cpu >= 0 &&
         cpu <= kMaxCpu;
}

}  // namespace

Result<std::vector<int>> ParseCpuList(std::string_view text) {
  std::vector<int> cpus;
  const std::string hint = "write CPUs and ranges, e.g. 0-3,8";
  if (text.empty()) return UsageError("empty CPU list", hint);
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = std::min(text.find(',', pos), text.size());
    const std::string_view part = text.substr(pos, comma - pos);
    const size_t dash = part.find('-');
    int first = 0, last = 0;
    const bool ok = dash == std::string_view::npos
                        ? ParseCpu(part, first) && ParseCpu(part, last)
                        : ParseCpu(part.substr(0, dash), first) &&
                              ParseCpu(part.substr(dash + 1), last);
    if (!ok) {
      return UsageError(
          fmt::format("\"{}\"{} is not a CPU number (0 to {}) or range", part,
                      part == text ? "" : fmt::format(" in \"{}\"", text),
                      kMaxCpu),
          hint);
    }
    if (last < first) {
      return UsageError(
          fmt::format("range \"{}\"{} runs backwards", part,
                      part == text ? "" : fmt::format(" in \"{}\"", text)),
          fmt::format("write {}-{}", last, first));
    }
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
    pos = comma + 1;
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string CpuListText(const std::vector<int>& cpus) {
  std::string text;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!text.empty()) text += ',';
    text += j == i ? fmt::format("{}", cpus[i])
                   : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return text;
}

std::vector<int> AllowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

}  // namespace flashmark
