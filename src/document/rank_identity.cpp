#include "document/rank_identity.h"

#include <fmt/format.h>

#include <regex>

namespace flashmark {

std::string RankIdentityText(const RankIdentity& identity) {
  return fmt::format("rank {} of {} on {}; group {}", identity.rank,
                     identity.size, identity.host, identity.group);
}

std::optional<RankIdentity> ParseRankIdentity(const std::string& text) {
  static const std::regex pattern(
      R"(rank ([0-9]{1,6}) of ([0-9]{1,6}) on (\S+); group ([0-9a-f]{1,32}))");
  std::smatch match;
  if (!std::regex_match(text, match, pattern)) return std::nullopt;
  RankIdentity identity{std::stoi(match[1]), std::stoi(match[2]), match[3],
                        match[4]};
  if (identity.rank >= identity.size) return std::nullopt;
  return identity;
}

}  // namespace flashmark
