#include <fmt/format.h>

#include <iostream>
#include <map>

#include "app/print_error.h"
#include "app/store_access.h"
#include "app/store_commands.h"
#include "common/json_text.h"
#include "common/local_time.h"
#include "report/text_escape.h"
#include "store/campaign_store.h"

namespace flashmark {

namespace {

// Each cell: its parameters, status, attempts, run and the reset steps
// done before it (every command with its argv, output, status and time).
nlohmann::json CellListJson(const std::vector<StoredCell>& cells) {
  nlohmann::json list = nlohmann::json::array();
  for (const StoredCell& cell : cells) {
    nlohmann::json parameters = nlohmann::json::object();
    for (const auto& [key, value] : cell.parameters) parameters[key] = value;
    list.push_back({{"cell", cell.index + 1},
                    {"parameters", parameters},
                    {"status", CellStatusName(cell.status)},
                    {"attempts", cell.attempts},
                    {"run", cell.run_id ? nlohmann::json(*cell.run_id)
                                        : nlohmann::json(nullptr)},
                    {"reset", cell.reset},
                    {"error", cell.error},
                    {"start_unix_ns", cell.start_unix_ns},
                    {"end_unix_ns", cell.end_unix_ns}});
  }
  return list;
}

}  // namespace

int ExecuteListCampaigns(const StoreCommandOptions& options) {
  auto runs = OpenStoreToRead(options.db);
  if (!runs.ok()) return PrintError(runs.error());
  auto store = CampaignStore::OpenForReading(runs->path());
  if (!store.ok()) return PrintError(store.error());
  auto campaigns = store->List();
  if (!campaigns.ok()) return PrintError(campaigns.error());
  if (options.ids) {
    for (const auto& campaign : *campaigns) std::cout << campaign.id << "\n";
    return 0;
  }
  nlohmann::json list = nlohmann::json::array();
  if (!options.json) {
    std::cout << fmt::format(
        "{:>4}  {:<16}  {:<16}  {:<11}  {:>5} {:>6} {:>7}  {}\n", "id", "name",
        "started", "status", "cells", "ok", "failed", "file");
  }
  for (const auto& campaign : *campaigns) {
    auto cells = store->Cells(campaign.id);
    if (!cells.ok()) return PrintError(cells.error());
    std::map<std::string, int> count;
    for (const auto& cell : *cells) ++count[CellStatusName(cell.status)];
    if (options.json) {
      list.push_back({{"id", campaign.id},
                      {"name", campaign.name},
                      {"file", campaign.file_path},
                      {"file_hash", campaign.file_hash},
                      {"status", CampaignStatusName(campaign.status)},
                      {"start_unix_ns", campaign.start_unix_ns},
                      {"end_unix_ns", campaign.end_unix_ns},
                      {"cells", campaign.cell_count},
                      {"cells_by_status", count},
                      {"cell_list", CellListJson(*cells)}});
      continue;
    }
    std::cout << fmt::format(
        "{:>4}  {:<16}  {:<16}  {:<11}  {:>5} {:>6} {:>7}  {}\n", campaign.id,
        TerminalText(campaign.name),
        LocalTimeText(campaign.start_unix_ns, "%Y-%m-%d %H:%M"),
        CampaignStatusName(campaign.status), campaign.cell_count, count["ok"],
        count["failed"], TerminalText(campaign.file_path));
  }
  if (options.json) std::cout << JsonText(list, 2) << "\n";
  return 0;
}

}  // namespace flashmark
