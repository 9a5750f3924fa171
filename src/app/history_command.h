// `flashmark history [--by KEY=VALUE,...] [--by KEY] [--fail-on-regression
// 5%] [--json] [--html FILE]`: each finished run's headline figure in the
// order the runs were made, with the change points across them
// (report/run_history.h), so that a regression after a firmware or kernel
// update is named with the run where it starts. KEY=VALUE selects runs (a
// tag, else a run parameter, as `report --by` reads them); a bare KEY
// makes one history per value. A history follows one workload: runs that
// differ in one are refused, as `compare` refuses them. Exit status 1 when
// --fail-on-regression is given and the newest run of a history is a
// regression beyond it; 2 for bad input; reads only.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace flashmark {

struct HistoryCommandOptions {
  std::optional<std::string> db;
  std::vector<std::string> by;  // KEY=VALUE[,KEY=VALUE...] or KEY
  std::optional<std::string> warmup, metric, fail_on_regression, html, title;
  bool json = false;
};

CLI::App* AddHistoryCommand(CLI::App& app, HistoryCommandOptions& options);
int ExecuteHistory(const HistoryCommandOptions& options);

}  // namespace flashmark
