#include "model/throttle_schedule.h"

#include <limits>

namespace flashmark {

std::chrono::nanoseconds MinThrottleTime(std::chrono::nanoseconds interval) {
  return interval * (kThrottleUnits * kThrottleUnitIntervals);
}

ThrottleSchedule MakeThrottleSchedule(std::chrono::nanoseconds time,
                                      std::chrono::nanoseconds interval) {
  ThrottleSchedule schedule;
  if (interval.count() <= 0 || time < MinThrottleTime(interval)) {
    return schedule;
  }
  const auto step = static_cast<uint64_t>(interval.count());
  const auto total = static_cast<uint64_t>(time.count());
  const uint64_t unit = total / kThrottleUnits / step * step;
  schedule.unit_ns = unit;
  // (gap before, load) in units; the last load runs to the end of --time.
  constexpr uint64_t kPhases[][2] = {{0, 12}, {1, 2}, {2, 2}, {3, 2}};
  uint64_t at = 0;
  for (const auto& [gap, load] : kPhases) {
    at += gap * unit;
    schedule.load.push_back({at, at + load * unit, gap * unit});
    at += load * unit;
  }
  schedule.load.back().end_ns = total;
  return schedule;
}

uint64_t ThrottleIdleUntil(const ThrottleSchedule& schedule,
                           uint64_t offset_ns) {
  for (const ThrottlePhase& phase : schedule.load) {
    if (offset_ns < phase.start_ns) return phase.start_ns;
    if (offset_ns < phase.end_ns) return 0;
  }
  return std::numeric_limits<uint64_t>::max();
}

}  // namespace flashmark
