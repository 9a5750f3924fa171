// Interruption by SIGINT / SIGTERM without handlers or globals.
// BlockInterruptSignals() must run in main() before any thread starts, so
// every thread inherits the blocked mask; the run loop and long phases
// then ask for pending signals explicitly. Thread-safe.
#pragma once

#include <cstdint>

namespace flashmark {

void BlockInterruptSignals();

// Waits up to `timeout_ns` for SIGINT or SIGTERM; returns the signal
// number taken, or 0 on timeout.
int WaitForInterrupt(uint64_t timeout_ns);

// Takes a pending SIGINT/SIGTERM without waiting; 0 when none.
inline int TakePendingInterrupt() { return WaitForInterrupt(0); }

}  // namespace flashmark
