// A moment for people: unix epoch nanoseconds in the local time zone,
// formatted by strftime ("%Y-%m-%d %H:%M"), and now in UTC. Thread-safe
// (localtime_r, gmtime_r).
#pragma once

#include <cstdint>
#include <string>

namespace flashmark {

std::string LocalTimeText(int64_t unix_ns, const char* format);
// Now in UTC, for a report's "generated" line: "2026-12-07 07:16 UTC".
std::string UtcNowText();

}  // namespace flashmark
