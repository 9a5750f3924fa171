// CPU lists as fio and taskset write them ("0-3,8,10-11") and the CPUs
// this process may run on. Parsing and formatting are pure; AllowedCpus()
// reads the calling thread's affinity (sched_getaffinity). Thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace flashmark {

// Sorted, without repeats. Errors name the bad part ("3-1", "x") and
// carry a hint, not the option: callers prefix it.
Result<std::vector<int>> ParseCpuList(std::string_view text);
// The shortest list text of `cpus` (sorted, unique): {0,1,2,3,8} -> "0-3,8".
std::string CpuListText(const std::vector<int>& cpus);
// The CPUs the calling thread may run on, sorted.
std::vector<int> AllowedCpus();

}  // namespace flashmark
