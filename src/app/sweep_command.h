// `flashmark sweep CAMPAIGN.toml`: runs a campaign (config/campaign_spec.h)
// cell by cell: the reset steps that apply (campaign/cell_reset.h), then the
// cell's workload, stored as a run tagged campaign=ID, cell=N and its
// parameter values. The campaign and every cell's status are kept in the
// store (store/campaign_store.h) as they change, so `--resume` after
// SIGINT, kill -9 or a reboot continues at the first unfinished cell:
// finished cells (ok or failed) are never run again, an interrupted one
// is rerun from its reset steps (its partial run is deleted first). A
// campaign file whose hash changed, or that expands to another plan (a
// changed $VARIABLE: every cell's workload, targets and reset steps are
// compared with the plan stored when it started), is refused naming the
// first difference. A campaign that a live process runs is refused too:
// it is claimed in one transaction, so of two `--resume` at once one runs
// it and the other exits 2 naming the process. A failing cell is recorded
// with its error and the sweep goes on, unless --stop-on-error. An
// interrupt (SIGINT/SIGTERM) wherever it lands (a reset step, a file set's
// layout, the run) stops the sweep at once: the cell stays unfinished for
// --resume, the campaign is interrupted. Mount steps mount only where
// nothing the campaign did not mount is mounted, and only the campaign's
// own mounts are undone (system/mount_ledger.h).
// With [campaign.steady-state], before each round the verdict so far is
// printed, and once the rounds are steady the cells left are skipped.
// `--dry-run` prints the plan and touches nothing.
//
// Exit status: 0 all cells ok, 1 some failed, 2 bad input or a campaign
// another live process runs (nothing run), 130 interrupted.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "config/campaign_spec.h"

namespace flashmark {

struct SweepOptions {
  std::string file;
  bool dry_run = false;
  bool resume = false;
  bool stop_on_error = false;
  bool quiet = false;
  std::vector<std::string> allow_destroy;
  std::optional<std::string> db;
};

CLI::App* AddSweepCommand(CLI::App& app, SweepOptions& options);
int ExecuteSweep(const SweepOptions& options, const std::string& command_line);

// What a sweep runs: a loaded campaign and its cells, the identity its
// stored campaign is found by on --resume (a file's absolute path, a
// built-in campaign's name), and the command that resumes it.
struct SweepPlan {
  CampaignSpec campaign;
  std::vector<CampaignCell> cells;
  std::string identity;
  std::string resume_command;
};

// ExecuteSweep once the campaign is loaded; `options.file` only names it
// in the dry run's plan.
int RunSweep(const SweepPlan& plan, const SweepOptions& options,
             const std::string& command_line);

}  // namespace flashmark
