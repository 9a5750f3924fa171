#include "common/cycle_clock.h"

#include <cmath>
#include <limits>

#include "common/sysfs_text.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace flashmark {
namespace {

#if defined(__x86_64__)
constexpr uint64_t kCalibrationNs = 10'000'000;

// CPUID 0x80000007 EDX bit 8: the counter ticks at one rate whatever the
// CPU's frequency or sleep state.
bool InvariantTsc() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000000, &eax, &ebx, &ecx, &edx) == 0 ||
      eax < 0x80000007) {
    return false;
  }
  __get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;
}

// The kernel keeps time on the counter only where the counters of all CPUs
// agree (it drops them as a clock source otherwise); kvm-clock is the
// counter scaled by the hypervisor.
bool KernelClockOnTsc() {
  const std::string source = ReadSysfsLine(
      "/sys/devices/system/clocksource/clocksource0/current_clocksource");
  return source == "tsc" || source == "kvm-clock";
}

struct Reading {
  uint64_t ticks = 0;
  uint64_t ns = 0;
};

// CLOCK_MONOTONIC and the counter at one moment: of a few tries, the one
// whose clock read sits between the closest pair of counter reads.
Reading ReadBoth() {
  Reading best;
  uint64_t best_gap = std::numeric_limits<uint64_t>::max();
  for (int i = 0; i < 5; ++i) {
    const uint64_t before = __builtin_ia32_rdtsc();
    const uint64_t ns = NowNs();
    const uint64_t after = __builtin_ia32_rdtsc();
    if (after - before < best_gap) {
      best_gap = after - before;
      best = {before + (after - before) / 2, ns};
    }
  }
  return best;
}
#endif

}  // namespace

CycleClock CycleClock::Calibrate() {
  CycleClock clock;
#if defined(__x86_64__)
  if (!InvariantTsc() || !KernelClockOnTsc()) return clock;
  const Reading start = ReadBoth();
  SleepUntilNs(start.ns + kCalibrationNs);
  const Reading end = ReadBoth();
  if (end.ticks <= start.ticks || end.ns <= start.ns) return clock;
  const double ns_per_tick = static_cast<double>(end.ns - start.ns) /
                             static_cast<double>(end.ticks - start.ticks);
  // Between 100 MHz and 100 GHz, or it is no counter to time IO with.
  if (!(ns_per_tick > 0.01 && ns_per_tick < 10)) return clock;
  clock.tsc_ = true;
  clock.ns_per_tick_q32_ =
      static_cast<uint64_t>(std::llround(ns_per_tick * 4294967296.0));
#endif
  return clock;
}

double CycleClock::TicksPerNs() const {
  return 4294967296.0 / static_cast<double>(ns_per_tick_q32_);
}

}  // namespace flashmark
