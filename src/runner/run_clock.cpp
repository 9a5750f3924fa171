#include "runner/run_clock.h"

#include "common/clock.h"
#include "common/signals.h"

namespace flashmark {

uint64_t SystemRunClock::Now() { return NowNs(); }

int SystemRunClock::WaitForInterrupt(uint64_t ns) {
  return flashmark::WaitForInterrupt(ns);
}

}  // namespace flashmark
