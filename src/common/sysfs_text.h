// Reading the one-line files of sysfs and procfs ("1\n", "mq-deadline\n",
// "259:0\n"). A missing or unreadable file reads as empty (or the
// fallback); callers decide what unknown means. Thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace flashmark {

// The first line, without trailing spaces and newline; "" when unreadable.
std::string ReadSysfsLine(const std::filesystem::path& path);
// That line as a whole number; `fallback` when missing or not a number.
uint64_t ReadSysfsNumber(const std::filesystem::path& path,
                         uint64_t fallback = 0);

}  // namespace flashmark
