#include "config/tag_options.h"

#include <fmt/format.h>

namespace flashmark {

Result<TagPairs> ParseTagOptions(const std::vector<std::string>& options) {
  TagPairs tags;
  for (const auto& tag : options) {
    const auto equals = tag.find('=');
    if (equals == std::string::npos || equals == 0) {
      return UsageError(fmt::format("--tag: \"{}\" is not key=value", tag),
                        "try --tag device=ssd-a");
    }
    tags.emplace_back(tag.substr(0, equals), tag.substr(equals + 1));
  }
  return tags;
}

}  // namespace flashmark
