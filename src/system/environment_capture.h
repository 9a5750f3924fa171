// Captures the Environment recorded with every run: host name, kernel,
// CPU model and count, memory (from uname, /proc/cpuinfo, /proc/meminfo),
// the CPU frequency governor (sysfs cpufreq),
// and for a path its filesystem, mount options and underlying device
// (from /proc/self/mountinfo). Reads the system; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "model/environment.h"
#include "system/block_device_info.h"

namespace flashmark {

Environment CaptureHostEnvironment();
// Fills filesystem, mount point, mount options and device of `info.path`,
// and the facts of the disk under it (DescribeBlockDevice), returned.
std::optional<BlockDevice> DescribeMount(TargetInfo& info);

}  // namespace flashmark
