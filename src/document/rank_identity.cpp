#include "document/rank_identity.h"

#include <fmt/format.h>

#include <cstdio>

namespace flashmark {

std::string RankIdentityText(const RankIdentity& identity) {
  return fmt::format("rank {} of {} on {}; group {}", identity.rank,
                     identity.size, identity.host, identity.group);
}

std::optional<RankIdentity> ParseRankIdentity(const std::string& text) {
  // "rank R of N on HOST; group G", exactly as RankIdentityText writes it.
  RankIdentity identity;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "rank %6d of %6d on %n", &identity.rank,
                  &identity.size, &consumed) != 2 ||
      consumed == 0) {
    return std::nullopt;
  }
  const std::string rest = text.substr(static_cast<size_t>(consumed));
  const size_t separator = rest.find("; group ");
  if (separator == std::string::npos || separator == 0) return std::nullopt;
  identity.host = rest.substr(0, separator);
  identity.group = rest.substr(separator + 8);
  const bool hex =
      !identity.group.empty() && identity.group.size() <= 32 &&
      identity.group.find_first_not_of("0123456789abcdef") == std::string::npos;
  if (!hex || identity.host.find_first_of(" ;") != std::string::npos ||
      identity.rank < 0 || identity.rank >= identity.size ||
      RankIdentityText(identity) != text) {
    return std::nullopt;
  }
  return identity;
}

}  // namespace flashmark
