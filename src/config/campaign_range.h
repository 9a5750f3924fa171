// Range strings of campaign matrix axes: "A..B step S" (arithmetic, B
// included when a step lands on it) and "A..B xF" (geometric, integer
// F >= 2), over counts ("1..16 step 1", "1..16 x2"), sizes ("50G..650G
// step 40G", binary units as everywhere) and durations ("10s..60s step
// 10s"). "A..B" alone steps counts by 1. Values come back as option text
// that parses to exactly the computed number, in the unit the range was
// written in when every value is a whole number of it ("90G"), else in the
// largest unit that divides them all ("1536M", "4096"). At most
// kMaxRangeValues values. Pure; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace flashmark {

enum class RangeKind {
  kAuto,  // plain integers: counts; else sizes ("1m" = 1 MiB); else durations
  kCount,
  kSize,
  kDuration,
};

inline constexpr size_t kMaxRangeValues = 10000;

// True when `text` is meant as a range (it contains "..").
bool IsRangeText(std::string_view text);

// ExpandRange() (campaign_spec.h) with the kind known from the option.
Result<std::vector<std::string>> ExpandRangeAs(const std::string& text,
                                               RangeKind kind);

}  // namespace flashmark
