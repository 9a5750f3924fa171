// Who writes a row that a live process owns (a running run, a running
// campaign): the host, the process id and the kernel's boot id. A reader
// uses them to tell "still running" from "interrupted" (the process was
// killed, crashed, or the machine rebooted). Thread-safe; reads /proc.
#pragma once

#include <cstdint>
#include <string>

#include "common/host_identity.h"

namespace flashmark {

// True when the writer recorded as (host, pid, boot_id) is known to be
// gone: same host and another boot, or same boot and no such process.
// A writer on another host is never called gone (cannot tell from here).
bool WriterIsGone(const std::string& host, int64_t pid,
                  const std::string& boot_id);

}  // namespace flashmark
