// A moment for people: unix epoch nanoseconds in the local time zone,
// formatted by strftime ("%Y-%m-%d %H:%M"). Thread-safe (localtime_r).
#pragma once

#include <cstdint>
#include <string>

namespace flashmark {

std::string LocalTimeText(int64_t unix_ns, const char* format);

}  // namespace flashmark
