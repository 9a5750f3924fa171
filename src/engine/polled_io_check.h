// Whether every file can do polled IO (--hipri, io_uring IOPOLL): opened
// with O_DIRECT, on a block device whose queue polls (sysfs queue/io_poll
// is 1, which for NVMe means the driver has poll queues). Reads fcntl,
// fstat and sysfs only; thread-safe.
#pragma once

#include <span>

#include "common/result.h"
#include "engine/io_engine.h"

namespace flashmark {

// The first file that cannot poll, as an error naming it, its device and
// the sysfs setting, with the way to get poll queues; ok when all can.
Status CheckPolledIo(std::span<const IoFile> files);

}  // namespace flashmark
