#include "config/tag_options.h"

#include <fmt/format.h>

#include "common/units.h"

namespace flashmark {

Result<TagPairs> ParseTagOptions(const std::vector<std::string>& options) {
  TagPairs tags;
  for (const auto& tag : options) {
    const auto equals = tag.find('=');
    if (equals == std::string::npos || equals == 0) {
      return UsageError(fmt::format("--tag: \"{}\" is not key=value", tag),
                        "try --tag device=ssd-a");
    }
    const std::string key = tag.substr(0, equals);
    const std::string value = tag.substr(equals + 1);
    if (key == "tbw") {  // the drive's rated terabytes written
      const auto rated = ParseCapacity(value);
      if (!rated.ok() || *rated == 0) {
        return UsageError(
            fmt::format("--tag tbw=\"{}\" is not a size (the drive's rated "
                        "terabytes written)",
                        value),
            "give it as the vendor states it: --tag tbw=600T");
      }
    }
    tags.emplace_back(key, value);
  }
  return tags;
}

bool IsSweepTag(std::string_view key) {
  return key == kCampaignTag || key == kCellTag || key == kRepeatTag ||
         key == kPartTag;
}

Status AddPriceTag(const std::optional<std::string>& price, TagPairs& tags) {
  if (!price) return OkStatus();
  if (!ParsePrice(*price)) {
    return UsageError(
        fmt::format("--price \"{}\" is not a price (a number >= 0, with its "
                    "currency if you like)",
                    *price),
        "give what one device costs: --price 350, --price \"USD 28500\", "
        "--price 350EUR");
  }
  std::erase_if(tags, [](const auto& tag) { return tag.first == "price"; });
  tags.emplace_back("price", *price);
  return OkStatus();
}

const std::string* FindTag(const TagPairs& tags, std::string_view key) {
  for (const auto& [k, v] : tags) {
    if (k == key) return &v;
  }
  return nullptr;
}

}  // namespace flashmark
