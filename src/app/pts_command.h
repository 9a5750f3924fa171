// `flashmark pts TEST DEVICE --allow-destroy DEVICE`: the SNIA PTS tests
// (config/pts_plan.h) as built-in campaigns, each segment run exactly as
// `flashmark sweep` runs a campaign file (app/sweep_command.h): its reset
// steps, its cells stored as tagged runs, its rounds stopped once steady,
// the campaign kept in the store as it goes. TEST `all` runs every test
// in the specification's order.
//
// `--dry-run` prints each segment's preparation, a round's cells, and the
// duration at best (the 5 rounds of the first possible window) and at
// worst (25 rounds); it touches nothing, and the device need not be named
// in --allow-destroy. `--export DIR` writes each segment as DIR/NAME.toml
// (for `flashmark sweep`) and runs nothing. `--resume` continues every
// segment not finished (an interrupted one at its first unfinished cell)
// and leaves the finished ones.
//
// Exit status: as `flashmark sweep`: 0 all cells ok, 1 some failed, 2 bad
// input (nothing run), 130 interrupted.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace flashmark {

struct PtsOptions {
  std::string test;
  std::string device;
  std::string profile = "enterprise";
  double scale = 1.0;
  std::optional<int> threads, iodepth, max_rounds;
  std::string engine = "libaio";
  bool dry_run = false;
  bool resume = false;
  bool quiet = false;
  std::optional<std::string> export_directory;
  std::vector<std::string> allow_destroy;
  std::optional<std::string> db;
};

CLI::App* AddPtsCommand(CLI::App& app, PtsOptions& options);
int ExecutePts(const PtsOptions& options, const std::string& command_line);

}  // namespace flashmark
