// Signals without handlers or globals.
//
// Interrupts: SIGINT, SIGTERM and SIGHUP (a closed terminal or a dropped
// ssh session) all mean "stop cleanly": keep what was measured, remove
// what was created, exit 130. BlockInterruptSignals() must run in main()
// before any thread starts, so every thread inherits the blocked mask; the
// run loop and long phases then take pending interrupts explicitly.
//
// SIGPIPE: IgnoreBrokenPipe() (also from main) makes a write to a closed
// pipe (`flashmark run ... | head -1`) fail with EPIPE instead of killing
// the process: the stream that wrote goes quiet, the measurement goes on.
// Children get the default dispositions back (DefaultSignalsForChild).
// Thread-safe.
#pragma once

#include <signal.h>

#include <cstdint>

namespace flashmark {

void BlockInterruptSignals();
void IgnoreBrokenPipe();

// The interrupt signals (SIGINT, SIGTERM, SIGHUP).
sigset_t InterruptSignals();

// In a forked child before exec (async-signal-safe): nothing blocked and
// SIGPIPE back to its default, as a program started from a shell expects.
void DefaultSignalsForChild();

// Waits up to `timeout_ns` for an interrupt signal; returns the signal
// number taken, or 0 on timeout.
int WaitForInterrupt(uint64_t timeout_ns);

// Takes a pending interrupt signal without waiting; 0 when none.
inline int TakePendingInterrupt() { return WaitForInterrupt(0); }

}  // namespace flashmark
