// CycleClock: what a worker times each IO with, from its submission to its
// completion (model: fio's clocksource=cpu). Where the CPU's time-stamp
// counter is invariant (CPUID: constant rate, runs in every C-state) and
// the kernel keeps its own clock on it (clocksource tsc or kvm-clock, so
// the counters of all CPUs agree), Now() is one RDTSC, about 10 ns where
// clock_gettime() takes 25 (on the project's VM: two of them per IO were
// 80 % of the null engine's 60 ns per IO). Elsewhere it is CLOCK_MONOTONIC.
//
// Contract
// - Units: Now() returns ticks; only the difference of two ticks means
//   anything, and SpanNs() turns it into nanoseconds. Ticks are not
//   NowNs() time: schedules, intervals and sleeps stay on clock.h.
// - Accuracy: the tick rate is measured against CLOCK_MONOTONIC over about
//   10 ms when the clock is made (Calibrate() sleeps that long); the
//   relative error is below 1e-5, far under the latency histogram's.
// - A span read backwards (a thread moved to a CPU whose counter lags)
//   reads as 0, never as a huge value.
// - Threading: immutable once made; copy it into each thread.
#pragma once

#include <cstdint>

#include "common/clock.h"

namespace flashmark {

class CycleClock {
 public:
  // CLOCK_MONOTONIC, nanoseconds for ticks; what Calibrate() falls back to.
  CycleClock() = default;
  // The time-stamp counter where it can be trusted (see above), measured
  // against CLOCK_MONOTONIC; otherwise CycleClock().
  static CycleClock Calibrate();

  uint64_t Now() const {
#if defined(__x86_64__)
    if (tsc_) return __builtin_ia32_rdtsc();  // GCC/Clang builtin
#endif
    return NowNs();
  }
  // The nanoseconds between two ticks, `from` first.
  uint64_t SpanNs(uint64_t from, uint64_t to) const {
    if (to <= from) return 0;
    __extension__ using Uint128 = unsigned __int128;  // GCC/Clang builtin
    return static_cast<uint64_t>(
        (static_cast<Uint128>(to - from) * ns_per_tick_q32_) >> 32);
  }

  bool uses_tsc() const { return tsc_; }
  // The tick rate: the counter's in GHz, or 1 for CLOCK_MONOTONIC.
  double TicksPerNs() const;

 private:
  bool tsc_ = false;
  // Nanoseconds per tick in 32.32 fixed point (1 << 32: ticks are ns).
  uint64_t ns_per_tick_q32_ = uint64_t{1} << 32;
};

}  // namespace flashmark
