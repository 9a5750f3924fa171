// When a replay (`flashmark replay --timing`) issues each IO of a trace:
//   original  at its recorded issue time (ns since the trace's start, from
//             the replay's start);
//   scaled:X  at its recorded time divided by X (X > 0: scaled:2 is twice
//             as fast, scaled:0.5 half as fast);
//   afap      as fast as possible, holding at most the recorded queue depth
//             in flight (see runner/replay_worker.h).
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace flashmark {

struct ReplayTiming {
  enum class Kind { kOriginal, kScaled, kAfap };
  Kind kind = Kind::kOriginal;
  double speed = 1;  // kScaled: X

  bool timed() const { return kind != Kind::kAfap; }
  // The intended time of an IO recorded at `trace_ns` (timed() only).
  int64_t IntendedNs(int64_t trace_ns) const {
    return kind == Kind::kScaled
               ? static_cast<int64_t>(static_cast<double>(trace_ns) / speed)
               : trace_ns;
  }
};

// "original", "scaled:2", "afap".
std::string ReplayTimingName(const ReplayTiming& timing);
// A --timing value; a usage error naming it and the choices otherwise.
Result<ReplayTiming> ParseReplayTiming(std::string_view text);

}  // namespace flashmark
