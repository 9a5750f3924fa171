// --tag key=value options (run, import, list): parsing shared by every
// command that takes them. Pure; thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/result.h"

namespace flashmark {

using TagPairs = std::vector<std::pair<std::string, std::string>>;

// Splits each "key=value" at its first '='; usage error naming the first
// option without a key or without '='. The value may be empty.
Result<TagPairs> ParseTagOptions(const std::vector<std::string>& options);

}  // namespace flashmark
