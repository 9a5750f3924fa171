// What `flashmark capture` traces: a block device named by the user (a
// whole disk, or a partition: its range of its disk), or the block devices
// under a process's open files (/proc/PID/fd: the device a regular file or
// directory lies on, a block device opened directly; each as its whole
// disk). Reads /proc, /sys and stat(2); opens nothing for writing.
//
// Errors are usage errors (exit 2) naming the value, with a hint: a path
// that does not exist or is not a block device; a pid that does not exist
// or whose files lie on no block device (tmpfs, pipes only). Thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "system/capture_join.h"

namespace flashmark {

Result<CaptureDevice> CaptureDeviceAt(const std::string& path);

struct CaptureProcess {
  uint32_t pid = 0;
  std::string command;  // /proc/PID/comm
  std::vector<CaptureDevice> devices;
};
// `text` is the pid as given (checked here).
Result<CaptureProcess> CaptureProcessOf(const std::string& text);

// False once the process has exited (gone, or a zombie not yet reaped).
bool CaptureProcessAlive(uint32_t pid);
// The process's threads now (/proc/PID/task), the process itself first.
std::vector<uint32_t> CaptureProcessThreads(uint32_t pid);

}  // namespace flashmark
