// Which machine and which boot of it this process runs on. Thread-safe;
// reads the kernel (gethostname, procfs) on each call.
#pragma once

#include <string>

namespace flashmark {

std::string HostName();
// /proc/sys/kernel/random/boot_id: the same for every process (every
// container) of one running kernel, and so of one CLOCK_REALTIME; new at
// each boot. "" when unreadable.
std::string BootId();

}  // namespace flashmark
