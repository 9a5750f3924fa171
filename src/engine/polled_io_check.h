// Whether targets can do polled IO (--hipri, io_uring IOPOLL): opened with
// O_DIRECT, on a block device whose queue polls (sysfs queue/io_poll is 1,
// which for NVMe means the driver has poll queues). Reads fcntl, stat and
// sysfs only; thread-safe.
#pragma once

#include <span>
#include <string>

#include "common/result.h"
#include "engine/io_engine.h"

namespace flashmark {

// The first target path (a directory, file or block device) whose device
// cannot poll, as a usage error naming it, its device and the sysfs
// setting, with the way to get poll queues; ok when all can. For the check
// before anything is laid out.
Status CheckPolledPaths(std::span<const std::string> targets);
// The same for opened files, which must also be O_DIRECT.
Status CheckPolledIo(std::span<const IoFile> files);

}  // namespace flashmark
