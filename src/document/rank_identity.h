// Which rank of which run across MPI ranks a run was, as its document
// says it (Environment::cluster of a rank's run: "rank 2 of 4 on node7;
// group 18ed56d1d95feefc"), so that a rank's own JSON document, imported
// later (`flashmark import flashmark`), joins its group with the same tags
// rank 0 gave the runs it stored (group=, rank=, host=). Pure; thread-safe.
#pragma once

#include <optional>
#include <string>

namespace flashmark {

struct RankIdentity {
  int rank = 0;
  int size = 1;
  std::string host;
  std::string group;  // hex; the tag group=
};

std::string RankIdentityText(const RankIdentity& identity);
// Nothing when `text` is not one that RankIdentityText wrote.
std::optional<RankIdentity> ParseRankIdentity(const std::string& text);

}  // namespace flashmark
