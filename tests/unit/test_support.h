// What several unit test files share: units of size and time, and a fixed
// environment for campaign files. Header-only; for the unit tests only.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "config/campaign_env.h"

namespace flashmark::test_support {

inline constexpr uint64_t kKiB = 1024;
inline constexpr uint64_t kMiB = kKiB * 1024;
inline constexpr uint64_t kGiB = kMiB * 1024;
inline constexpr uint64_t kTiB = kGiB * 1024;
inline constexpr uint64_t kMs = 1'000'000;  // in nanoseconds
inline constexpr uint64_t kSecond = 1'000'000'000;

// An environment where exactly `variables` are set: a campaign file's
// defaults apply, whatever the developer's shell exports.
inline EnvironmentLookup FixedEnvironment(
    std::map<std::string, std::string> variables = {}) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    auto it = variables.find(name);
    if (it == variables.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace flashmark::test_support
