#include "campaign/campaign_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "store/campaign_store.h"

namespace flashmark {

Result<CampaignRuns> SelectCampaignRuns(const std::string& database,
                                        const std::string& campaign_id,
                                        const std::vector<std::string>& where,
                                        const std::optional<std::string>& by) {
  int64_t id = 0;
  const auto [end, error] = std::from_chars(
      campaign_id.data(), campaign_id.data() + campaign_id.size(), id);
  if (error != std::errc() || end != campaign_id.data() + campaign_id.size() ||
      id <= 0) {
    return UsageError(
        fmt::format("--campaign: {} is not a campaign id", campaign_id),
        "campaign ids are positive numbers, printed by `flashmark sweep`");
  }
  auto store = CampaignStore::OpenForReading(database);
  if (!store.ok()) return store.error();
  auto campaign = store->Find(id);
  if (!campaign.ok()) return campaign.error();
  auto cells = store->Cells(id);
  if (!cells.ok()) return cells.error();

  std::set<std::string> names;
  for (const auto& cell : *cells) {
    for (const auto& parameter : cell.parameters) names.insert(parameter.first);
  }
  std::vector<std::pair<std::string, std::string>> wanted;
  for (const auto& condition : where) {
    const size_t equals = condition.find('=');
    const std::string key = condition.substr(0, equals);
    if (equals == std::string::npos || names.count(key) == 0) {
      return UsageError(
          fmt::format("--where {}: expected PARAMETER=VALUE with a parameter "
                      "of campaign "
                      "{}",
                      condition, id),
          fmt::format("its parameters: {}", fmt::join(names, ", ")));
    }
    wanted.emplace_back(key, condition.substr(equals + 1));
  }

  CampaignRuns runs;
  runs.title = fmt::format("{} (campaign {})", campaign->name, id);
  std::vector<const StoredCell*> selected;
  for (const auto& cell : *cells) {
    if (cell.status != CellStatus::kOk || !cell.run_id) continue;
    bool matches = true;
    for (const auto& condition : wanted) {
      bool found = false;
      for (const auto& parameter : cell.parameters)
        found |= parameter == condition;
      matches &= found;
    }
    if (matches) selected.push_back(&cell);
  }
  if (selected.empty()) {
    return UsageError(
        fmt::format("campaign {} has no cell that finished ok{}", id,
                    wanted.empty()
                        ? ""
                        : fmt::format(" with {}", fmt::join(where, " "))),
        "`flashmark sweep FILE --resume` finishes an interrupted campaign");
  }
  std::vector<std::string> varying;
  for (const auto& name : names) {
    std::set<std::string> values;
    for (const StoredCell* cell : selected) {
      for (const auto& parameter : cell->parameters) {
        if (parameter.first == name) values.insert(parameter.second);
      }
    }
    if (values.size() > 1) varying.push_back(name);
  }
  for (const StoredCell* cell : selected) {
    runs.run_ids.push_back(*cell->run_id);
    std::string name;
    for (const auto& [key, value] : cell->parameters) {
      if (std::find(varying.begin(), varying.end(), key) == varying.end())
        continue;
      name += (name.empty() ? "" : " ") + key + "=" + value;
    }
    runs.cell_names[*cell->run_id] = name;
  }
  if (std::find(varying.begin(), varying.end(), "mode") != varying.end()) {
    runs.metric = "mibs";
  }
  if (by) {
    runs.by = by;
    std::vector<std::string> mixed;
    for (const auto& name : varying) {
      if (name != *by) mixed.push_back(name);
    }
    if (!mixed.empty()) {
      runs.note = fmt::format(
          "the groups by {} mix cells that also differ in {}; add --where "
          "{}=VALUE for "
          "one series",
          *by, fmt::join(mixed, ", "), mixed.front());
    }
  } else if (varying.size() == 1) {
    runs.by = varying.front();
  } else if (varying.size() > 1) {
    runs.by = kCellParameters;
    runs.note = fmt::format(
        "the cells differ in {}: one box per cell; e.g. `--by {} --where "
        "{}=VALUE` draws "
        "the median against {}",
        fmt::join(varying, ", "), varying.back(), varying.front(),
        varying.back());
  }
  return runs;
}

}  // namespace flashmark
