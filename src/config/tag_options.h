// --tag key=value options (run, import, list): parsing shared by every
// command that takes them. Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"

namespace flashmark {

using TagPairs = std::vector<std::pair<std::string, std::string>>;

// Splits each "key=value" at its first '='; usage error naming the first
// option without a key or without '='. The value may be empty.
Result<TagPairs> ParseTagOptions(const std::vector<std::string>& options);

// --price AMOUNT (run, import): what one device costs, in any currency,
// filed as the tag price=AMOUNT (replacing a --tag price=...), which
// compare and report turn into cost per GB, per MiB/s and per kIOPS. A
// usage error unless AMOUNT is a finite number >= 0.
Status AddPriceTag(const std::optional<std::string>& price, TagPairs& tags);

}  // namespace flashmark
