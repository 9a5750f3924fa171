// ThrottleSchedule: when a --detect-throttle run does IO and when it idles,
// a pure function of the run's --time and --interval, so that the workers
// (which follow it) and the analysis (which reads the run against it) agree
// without storing it. With u = --time / 24 rounded down to whole intervals:
//   load 12 u (spends a full burst bucket: burst, then baseline),
//   idle u, load 2 u, idle 2 u, load 2 u, idle 3 u, load the rest (>= 2 u):
// idle gaps of growing length, each followed by enough load to spend what
// the gap refilled (up to 2 u at the burst rate above the baseline).
// Times in nanoseconds since the run started. Pure; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

namespace flashmark {

struct ThrottlePhase {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;  // exclusive
  // The idle gap just before this load phase (0 for the first one).
  uint64_t gap_before_ns = 0;
};

struct ThrottleSchedule {
  std::vector<ThrottlePhase> load;  // in time order; gaps lie between them
  uint64_t unit_ns = 0;             // u above
};

// The idle gaps' unit must hold at least this many intervals, so that each
// gap and each probe after it is measured by whole intervals.
inline constexpr int kThrottleUnitIntervals = 2;
inline constexpr int kThrottleUnits = 24;

// The schedule for a run of `time` sampled every `interval`; empty (no
// load phase) when `time` is shorter than kThrottleUnits units of
// kThrottleUnitIntervals intervals (MinThrottleTime).
ThrottleSchedule MakeThrottleSchedule(std::chrono::nanoseconds time,
                                      std::chrono::nanoseconds interval);

// The shortest --time MakeThrottleSchedule accepts at this interval.
std::chrono::nanoseconds MinThrottleTime(std::chrono::nanoseconds interval);

// 0 when `offset_ns` (since the run started) lies in a load phase, else
// the offset at which the next one starts (UINT64_MAX after the last).
uint64_t ThrottleIdleUntil(const ThrottleSchedule& schedule,
                           uint64_t offset_ns);

}  // namespace flashmark
