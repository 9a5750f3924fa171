// Facts about a block device from sysfs (/sys/class/block/NAME): model,
// serial, firmware, capacity, rotational, scheduler, queue depth. For a
// partition the whole disk's facts are read. Missing facts stay empty
// (virtio disks have no model; loop devices no serial). Reads sysfs only;
// thread-safe.
#pragma once

#include <string>

#include "metrics/environment.h"

namespace flashmark {

// Fills info.model, serial, firmware, capacity_bytes, rotational,
// scheduler and queue_depth from the device named in info.device
// ("/dev/vda", "/dev/nvme0n1p2", "/dev/mapper/x"); no-op when unknown.
void DescribeBlockDevice(TargetInfo& info);

}  // namespace flashmark
