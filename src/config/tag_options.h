// --tag key=value options (run, import, list): parsing shared by every
// command that takes them. Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace flashmark {

using TagPairs = std::vector<std::pair<std::string, std::string>>;

// Splits each "key=value" at its first '='; usage error naming the first
// option without a key or without '='. The value may be empty.
Result<TagPairs> ParseTagOptions(const std::vector<std::string>& options);

// The tags a sweep files with each run of a cell (campaign=ID, cell=N,
// repeat=N, part=TARGET): they tie the run to its cell, so nothing else
// may set or change them.
inline constexpr const char* kCampaignTag = "campaign";
inline constexpr const char* kCellTag = "cell";
inline constexpr const char* kRepeatTag = "repeat";
inline constexpr const char* kPartTag = "part";
bool IsSweepTag(std::string_view key);

// The value of tag `key`; null when there is none.
const std::string* FindTag(const TagPairs& tags, std::string_view key);

// The tags of a run across MPI ranks (campaign/cluster_run.h): group=ID
// on every run of it, rank=N and host=NAME on each rank's, rank=all on
// the aggregate. An imported rank document gets the same (store/
// flashmark_import.h).
inline constexpr const char* kGroupTag = "group";
inline constexpr const char* kRankTag = "rank";
inline constexpr const char* kHostTag = "host";
inline constexpr const char* kAllRanks = "all";

// --price AMOUNT (run, import): what one device costs, in any currency,
// filed as the tag price=AMOUNT (replacing a --tag price=...), which
// compare and report turn into cost per GB, per MiB/s and per kIOPS. A
// usage error unless AMOUNT is a finite number >= 0.
Status AddPriceTag(const std::optional<std::string>& price, TagPairs& tags);

}  // namespace flashmark
