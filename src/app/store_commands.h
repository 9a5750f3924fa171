// `flashmark list | show RUN | export RUN | delete RUN | tag RUN...`:
// finding runs in the store again, reading one whole, exporting its
// intervals, removing it, changing its tags.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/cancel.h"
#include "store/run_store.h"

namespace flashmark {

struct StoreCommandOptions {
  std::optional<std::string> db;
  std::vector<std::string> runs;  // ids as typed
  std::vector<std::string> tags;  // list filters, key=value
  std::optional<std::string> label, status, since, until;
  std::string format = "csv";  // export
  std::optional<std::string> output;
  bool json = false;
  bool campaigns = false;                // list: campaigns instead of runs
  bool traces = false;                   // list: traces instead of runs
  std::optional<std::string> trace;      // show --trace ID: its summary
  std::optional<std::string> campaign;   // show --campaign ID: its file
  bool ids = false;                      // list: only the ids
  std::vector<std::string> remove_tags;  // tag --remove KEY
};

struct StoreCommands {
  CLI::App* list = nullptr;
  CLI::App* show = nullptr;
  CLI::App* exporter = nullptr;
  CLI::App* remover = nullptr;
  CLI::App* tagger = nullptr;
};

StoreCommands AddStoreCommands(CLI::App& app, StoreCommandOptions& options);

// A stored run as JSON: the run document plus id, label, source, tags
// (without intervals: "intervals" is [], as ToJson(RunResult) writes it).
nlohmann::json StoredRunJson(const StoredRun& stored,
                             const CancelToken& cancel = {},
                             bool with_intervals = true);

int ExecuteList(const StoreCommandOptions& options);
// `flashmark list --campaigns`: every sweep with its cells' status.
int ExecuteListCampaigns(const StoreCommandOptions& options);
int ExecuteShow(const StoreCommandOptions& options);
int ExecuteExport(const StoreCommandOptions& options);
int ExecuteDelete(const StoreCommandOptions& options);
// `flashmark tag RUN... [KEY=VALUE...] [--remove KEY]`.
int ExecuteTag(const StoreCommandOptions& options);

}  // namespace flashmark
