#include "campaign/cluster_cell.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

#include "campaign/cluster_run.h"
#include "common/clock.h"
#include "common/shell_quote.h"
#include "config/tag_options.h"
#include "report/text_escape.h"
#include "system/external_command.h"

namespace flashmark {

std::vector<std::string> CellLauncher(const CampaignSpec& campaign,
                                      bool as_root) {
  return campaign.launcher.empty() ? MpirunLauncher(campaign.hosts, as_root)
                                   : campaign.launcher;
}

Result<MeasuredRun> RunCellAcrossRanks(const CampaignSpec& campaign,
                                       const RunOptions& options,
                                       const RunLabels& labels,
                                       const std::string& database,
                                       std::ostream& out) {
  if (database.empty()) {
    return UsageError(
        "a campaign across hosts ([cluster]) stores its cells' runs: it "
        "needs a database",
        "leave out --no-db");
  }
  const bool as_root =
      geteuid() == 0 && std::getenv("OMPI_ALLOW_RUN_AS_ROOT") == nullptr;
  std::vector<std::string> argv = CellLauncher(campaign, as_root);
  const std::string own = ProgramPath();
  RunOptions cell = options;
  cell.db = database;
  cell.no_db = false;
  cell.label = labels.label;
  argv.push_back(own.empty() ? "flashmark" : own);
  for (std::string& arg : RankRunArguments(cell))
    argv.push_back(std::move(arg));
  out << "  running: " << TerminalText(ShellJoin(argv)) << "\n";
  out.flush();
  const int64_t launched = UnixNowNs();
  auto ran = RunAttached(argv);
  if (!ran.ok()) return ran.error();

  auto store = RunStore::Open(database);
  if (!store.ok()) return store.error();
  RunFilter filter;
  filter.tags = {{kRankTag, kAllRanks}};
  filter.label = labels.label;
  filter.since_unix_ns = launched;
  auto aggregates = store->ListRuns(filter);
  if (!aggregates.ok()) return aggregates.error();
  if (aggregates->empty()) {
    if (ran->exit_status == 130) return InterruptedError();
    return RuntimeError(
        fmt::format("the cell's run across ranks stored nothing: `{}` "
                    "ended with {}",
                    ShellJoin(argv), ran->Outcome()),
        "its own messages above say why");
  }
  const StoredRun& aggregate = aggregates->back();
  const std::string* group = FindTag(aggregate.labels.tags, kGroupTag);
  if (group == nullptr)
    return RuntimeError("the cell's aggregate has no group tag");
  RunFilter members;
  members.tags = {{kGroupTag, *group}};
  auto runs = store->ListRuns(members);
  if (!runs.ok()) return runs.error();
  std::vector<int64_t> ids;
  for (const StoredRun& member : *runs) ids.push_back(member.id);
  // The cell's tags beyond the ones its run options gave every rank.
  std::vector<std::pair<std::string, std::string>> sweep;
  for (const auto& tag : labels.tags) {
    bool given = false;
    for (const auto& have : aggregate.labels.tags) given |= have == tag;
    if (!given) sweep.push_back(tag);
  }
  if (Status tagged = store->RetagRuns(ids, sweep, {}); !tagged.ok()) {
    return tagged.error();
  }
  if (!options.analysis.empty()) {
    if (Status set = store->SetRunAnalysis(ids, options.analysis); !set.ok())
      return set.error();
  }
  auto loaded = store->LoadRun(aggregate.id, false);
  if (!loaded.ok()) return loaded.error();
  return MeasuredRun{std::move(loaded->run), aggregate.id, false};
}

}  // namespace flashmark
