// `flashmark sweep CAMPAIGN.toml --dry-run`: loads and validates a campaign
// file and prints its expanded plan: one line per cell with its
// parameters and workload, the reset steps before it, the cell count and
// the estimated total time. Running the cells (and --resume) is not in
// this version yet; without --dry-run the command says so and exits 2.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace flashmark {

struct SweepOptions {
  std::string file;
  bool dry_run = false;
};

CLI::App* AddSweepCommand(CLI::App& app, SweepOptions& options);
int ExecuteSweep(const SweepOptions& options);

}  // namespace flashmark
