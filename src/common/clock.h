// Monotonic time in nanoseconds (CLOCK_MONOTONIC through the vDSO, about
// 20 ns a call) and absolute sleeps on the same clock. Thread-safe.
#pragma once

#include <cstdint>
#include <ctime>

namespace flashmark {

inline uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + ts.tv_nsec;
}

inline void SleepUntilNs(uint64_t deadline_ns) {
  timespec ts{static_cast<time_t>(deadline_ns / 1000000000ull),
              static_cast<long>(deadline_ns % 1000000000ull)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
  }
}

// Wall-clock time for records (unix epoch nanoseconds).
inline int64_t UnixNowNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000ll + ts.tv_nsec;
}

}  // namespace flashmark
