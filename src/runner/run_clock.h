// RunClock: the sampler's time and its wait, injectable so the sampling
// loop can be driven by a test clock (no sleeps, stalls on demand).
//   Now(): monotonic nanoseconds (any origin; the loop uses differences).
//   WaitForInterrupt(ns): waits at most `ns` of this clock's time, or
//     until an interrupt is taken; returns the signal number, 0 on timeout.
// SystemRunClock is CLOCK_MONOTONIC and the process's interrupt signals
// (common/signals.h). Used from the sampler's thread only.
#pragma once

#include <cstdint>

namespace flashmark {

class RunClock {
 public:
  virtual ~RunClock() = default;
  virtual uint64_t Now() = 0;
  virtual int WaitForInterrupt(uint64_t ns) = 0;
};

class SystemRunClock : public RunClock {
 public:
  uint64_t Now() override;
  int WaitForInterrupt(uint64_t ns) override;
};

}  // namespace flashmark
