#include "common/cycle_clock.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "common/clock.h"
#include "common/sysfs_text.h"

namespace flashmark {
namespace {

// Whether /proc/cpuinfo lists `flag` for the first CPU.
bool CpuFlag(const std::string& flag) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::string word;
    while (words >> word) {
      if (word == flag) return true;
    }
    return false;
  }
  return false;
}

TEST(CycleClock, TheDefaultClockIsMonotonicNanoseconds) {
  const CycleClock clock;
  EXPECT_FALSE(clock.uses_tsc());
  EXPECT_EQ(clock.TicksPerNs(), 1.0);
  const uint64_t before = NowNs();
  const uint64_t ticks = clock.Now();
  const uint64_t after = NowNs();
  EXPECT_LE(before, ticks);
  EXPECT_LE(ticks, after);
  EXPECT_EQ(clock.SpanNs(1000, 4500), 3500u);
}

TEST(CycleClock, ASpanReadBackwardsIsZero) {
  const CycleClock clock;
  EXPECT_EQ(clock.SpanNs(5000, 4999), 0u);
  EXPECT_EQ(clock.SpanNs(5000, 5000), 0u);
  const CycleClock calibrated = CycleClock::Calibrate();
  EXPECT_EQ(calibrated.SpanNs(UINT64_MAX, 0), 0u);
}

// The counter is used exactly where it can be trusted: an invariant
// counter (the kernel sets nonstop_tsc from the same CPUID bit) that the
// kernel keeps its own clock on.
TEST(CycleClock, TheCounterIsUsedWhereItIsInvariantAndTheKernelsClock) {
  const std::string source = ReadSysfsLine(
      "/sys/devices/system/clocksource/clocksource0/current_clocksource");
  bool trusted =
      CpuFlag("nonstop_tsc") && (source == "tsc" || source == "kvm-clock");
#if !defined(__x86_64__)
  trusted = false;
#endif
  const CycleClock clock = CycleClock::Calibrate();
  EXPECT_EQ(clock.uses_tsc(), trusted)
      << "clocksource " << source << ", rate " << clock.TicksPerNs();
  if (clock.uses_tsc()) {
    EXPECT_GT(clock.TicksPerNs(), 0.1);
    EXPECT_LT(clock.TicksPerNs(), 100.0);
  }
}

// Whichever clock it chose, a span it measures is the span CLOCK_MONOTONIC
// measures: 20 ms slept, read both ways, within 1 % (the two reads of each
// clock are not at the same instant; 1 % of 20 ms is 200 us).
TEST(CycleClock, ItsSpansAreMonotonicNanoseconds) {
  const CycleClock clock = CycleClock::Calibrate();
  for (int attempt = 0; attempt < 3; ++attempt) {
    const uint64_t ticks_before = clock.Now();
    const uint64_t ns_before = NowNs();
    SleepUntilNs(ns_before + 20'000'000);
    const uint64_t ns_after = NowNs();
    const uint64_t ticks_after = clock.Now();
    const double measured =
        static_cast<double>(clock.SpanNs(ticks_before, ticks_after));
    const double expected = static_cast<double>(ns_after - ns_before);
    // The counter's span holds the clock's: never shorter.
    EXPECT_GE(measured, expected * 0.999);
    if (measured <= expected * 1.01) return;  // a preemption widens one try
  }
  ADD_FAILURE() << "three 20 ms spans measured more than 1 % long";
}

}  // namespace
}  // namespace flashmark
