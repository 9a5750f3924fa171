#include "runner/run_clock.h"

#include "runner/clock.h"
#include "system/signals.h"

namespace flashmark {

uint64_t SystemRunClock::Now() { return NowNs(); }

int SystemRunClock::WaitForInterrupt(uint64_t ns) {
  return flashmark::WaitForInterrupt(ns);
}

}  // namespace flashmark
