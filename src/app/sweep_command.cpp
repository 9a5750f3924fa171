#include "app/sweep_command.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "campaign/cell_reset.h"
#include "campaign/measured_run.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "campaign/sweep_plan.h"
#include "campaign/targets_at_once.h"
#include "report/console_reporter.h"
#include "config/campaign_plan.h"
#include "config/campaign_spec.h"
#include "common/units.h"
#include "store/campaign_store.h"
#include "store/run_store.h"
#include "store/store_file.h"

namespace flashmark {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

std::string AbsolutePath(const std::string& path) {
  std::error_code error;
  auto absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(path), error);
  return error ? path : absolute.string();
}

// Where the plan expanded now first differs from the one stored when the
// campaign started ("cell 2 (threads=2): targets[0]: ... then, ... now"),
// or "" when it is the same plan: a file with the same hash can still
// expand differently when its $VARIABLES changed.
std::string PlanChange(const std::vector<StoredCell>& stored,
                       const CampaignSpec& campaign,
                       const std::vector<CampaignCell>& cells) {
  if (stored.size() != cells.size()) {
    return fmt::format("it had {} cells, it has {} now", stored.size(),
                       cells.size());
  }
  for (size_t i = 0; i < cells.size(); ++i) {
    std::string change;
    if (stored[i].plan.is_null()) {  // stored without a plan: the parameters
      if (stored[i].parameters != cells[i].parameters) {
        change = "its parameters differ";
      }
    } else {
      change =
          FirstPlanDifference(stored[i].plan, CellPlanJson(campaign, cells[i]));
    }
    if (!change.empty()) {
      return fmt::format("cell {} ({}): {}", i + 1,
                         CellParametersText(cells[i]), change);
    }
  }
  return "";
}

// The campaign --resume continues: the latest one made from this file,
// checked (not finished, same hash, same expanded plan). Claiming it is
// the caller's (CampaignStore::Claim, which also refuses a live owner).
Result<int64_t> FindResumable(CampaignStore& store,
                              const CampaignSpec& campaign,
                              const std::vector<CampaignCell>& cells,
                              const std::string& file_path) {
  auto latest = store.LatestForFile(file_path);
  if (!latest.ok()) return latest.error();
  if (!*latest) {
    return UsageError(fmt::format("--resume: no campaign from {} in {}", file_path,
                                  store.path()),
                      "run it without --resume to start it");
  }
  const StoredCampaign& found = **latest;
  if (found.status == CampaignStatus::kFinished) {
    return UsageError(
        fmt::format("--resume: campaign {} from {} finished on {}; nothing to resume",
                    found.id, file_path, LocalTimeText(found.end_unix_ns, "%Y-%m-%d %H:%M")),
        "run it without --resume to start it again");
  }
  if (found.file_hash != campaign.file_hash) {
    return UsageError(
        fmt::format("--resume: {} changed since campaign {} started (SHA-256 {} then, "
                    "{} now); its finished cells may not match the changed plan",
                    file_path, found.id, found.file_hash.substr(0, 16),
                    campaign.file_hash.substr(0, 16)),
        "restore the file as it was, or run without --resume to start a new campaign");
  }
  auto stored = store.Cells(found.id);
  if (!stored.ok()) return stored.error();
  if (const std::string change = PlanChange(*stored, campaign, cells);
      !change.empty()) {
    return UsageError(
        fmt::format("--resume: {} expands to another plan than campaign {} "
                    "(same file, but its $VARIABLES or this flashmark's "
                    "expansion differ): {}",
                    file_path, found.id, change),
        "set the environment variables as they were, or run without --resume "
        "to start a new campaign");
  }
  return found.id;
}

std::string Bar(double fraction) {
  constexpr int kWidth = 20;
  const int filled = static_cast<int>(fraction * kWidth + 0.5);
  return std::string(filled, '#') + std::string(kWidth - filled, '.');
}

// Deletes the runs an earlier, interrupted attempt at the cell left.
Status DiscardPartialRuns(RunStore& runs, int64_t campaign_id, const CampaignCell& cell,
                          std::ostream& out) {
  RunFilter filter;
  filter.tags = {{"campaign", std::to_string(campaign_id)},
                 {"cell", std::to_string(cell.index + 1)}};
  auto partial = runs.ListRuns(filter);
  if (!partial.ok()) return partial.error();
  for (const auto& stored : *partial) {
    out << fmt::format("  cell {} was interrupted: its partial run {} is discarded, the "
                       "cell reruns from its reset steps\n",
                       cell.index + 1, stored.id);
    if (Status deleted = runs.DeleteRun(stored.id); !deleted.ok()) return deleted;
  }
  return OkStatus();
}

struct CellOutcome {
  CellStatus status = CellStatus::kFailed;
  std::string error;
};

CellOutcome RunCell(const CampaignSpec& campaign, const CampaignCell& cell,
                    int64_t campaign_id, const SweepOptions& options,
                    const std::string& command_line,
                    const std::string& database, bool terminal,
                    bool first_of_session, json& reset_record,
                    CampaignStore& store, MountLedger& mounts) {
  ResetSettings reset_settings{options.allow_destroy,
                               CaptureSafetyContext(database), terminal,
                               first_of_session, &mounts};
  auto reset = ResetCell(campaign, cell, reset_settings, std::cout, reset_record);
  if (!reset.ok()) return {CellStatus::kFailed, reset.error().message};
  if (*reset == ResetOutcome::kInterrupted) return {CellStatus::kInterrupted, ""};

  RunOptions run_options = cell.options;
  run_options.allow_destroy = options.allow_destroy;
  run_options.quiet = run_options.quiet || options.quiet;
  auto built = BuildJobSpec(run_options);
  if (!built.ok()) return {CellStatus::kFailed, built.error().message};
  Tags tags = built->tags;
  tags.emplace_back("campaign", std::to_string(campaign_id));
  tags.emplace_back("cell", std::to_string(cell.index + 1));
  for (const auto& parameter : cell.parameters) tags.push_back(parameter);
  if (campaign.repeats > 1) tags.emplace_back("repeat", std::to_string(cell.repeat + 1));

  const RunLabels labels{fmt::format("{} #{}", campaign.name, cell.index + 1), tags,
                         "flashmark", ""};
  const std::string cell_command =
      fmt::format("{}  # campaign {}, cell {}", command_line, campaign_id, cell.index + 1);
  Result<MeasuredRun> run = Error{};
  if (run_options.targets.size() > 1) {
    run = RunTargetsAtOnce(
        TargetsAtOnceSettings{run_options, database, labels, cell_command},
        std::cout);
  } else {
    MeasuredRunSettings settings;
    settings.command_line = cell_command;
    settings.labels = labels;
    settings.database = database;
    settings.database_checked = true;
    settings.console = &std::cout;
    settings.terminal = terminal;
    run = PerformRun(built->spec, settings);
  }
  if (!run.ok()) {
    // Interrupted before it measured (during the layout): the cell is not
    // done, --resume runs it again.
    if (IsInterruption(run.error())) {
      std::cout << "  " << run.error().message << "\n";
      return {CellStatus::kInterrupted, ""};
    }
    return {CellStatus::kFailed, run.error().message};
  }
  if (run->run_id != 0) {
    if (Status linked = store.SetCellRun(campaign_id, cell.index, run->run_id);
        !linked.ok()) {
      std::cerr << "warning: " << linked.error().message << "\n";
    }
  }
  switch (run->result.status) {
    case RunStatus::kOk:
      if (run->store_failed) {
        return {CellStatus::kFailed, "the run could not be stored (see above)"};
      }
      return {CellStatus::kOk, ""};
    case RunStatus::kInterrupted: return {CellStatus::kInterrupted, ""};
    default:
      return {CellStatus::kFailed,
              run->result.error ? run->result.error->message : "the run failed"};
  }
}

void PrintCellTable(CampaignStore& store, RunStore& runs, int64_t campaign_id) {
  auto cells = store.Cells(campaign_id);
  if (!cells.ok()) return;
  std::cout << fmt::format("\n  {:>4}  {:<36} {:<11} {:>5} {:>11} {:>11} {:>9} {:>9}\n",
                           "cell", "parameters", "status", "run", "read MiB/s",
                           "write MiB/s", "IOPS", "p99 lat");
  for (const auto& cell : *cells) {
    std::string parameters;
    for (const auto& [key, value] : cell.parameters) {
      parameters += (parameters.empty() ? "" : " ") + key + "=" + value;
    }
    std::string figures = fmt::format("{:>11} {:>11} {:>9} {:>9}", "-", "-", "-", "-");
    if (cell.run_id) {
      auto stored = runs.LoadRun(*cell.run_id, false);
      if (stored.ok()) {
        const RunSummary& s = stored->run.summary;
        figures = fmt::format("{:>11.1f} {:>11.1f} {:>9} {:>9}", s.read_mibs.median,
                              s.write_mibs.median, FormatCount(s.iops.median),
                              FormatLatency(s.latency.p99));
      }
    }
    std::cout << fmt::format("  {:>4}  {:<36} {:<11} {:>5} {}\n", cell.index + 1,
                             parameters, CellStatusName(cell.status),
                             cell.run_id ? std::to_string(*cell.run_id) : "-", figures);
    if (!cell.error.empty()) std::cout << "        error: " << cell.error << "\n";
  }
}

}  // namespace

CLI::App* AddSweepCommand(CLI::App& app, SweepOptions& o) {
  CLI::App* command = app.add_subcommand(
      "sweep", "Run a campaign of runs from a TOML file, a fresh device per cell");
  command->add_option("CAMPAIGN", o.file, "campaign file (see examples/)")->required();
  command->add_flag("--dry-run", o.dry_run, "print the expanded plan, run nothing");
  command->add_flag("--resume", o.resume,
                    "continue the interrupted campaign from this file at its first "
                    "unfinished cell");
  command->add_flag("--stop-on-error", o.stop_on_error,
                    "stop at the first failing cell (default: record it, go on)");
  command
      ->add_option("--allow-destroy", o.allow_destroy,
                   "block device the reset steps and runs may destroy (repeat)")
      ->allow_extra_args(false);  // one value each time
  AddDatabaseOption(command, o.db);
  command->add_flag("-q,--quiet", o.quiet, "no per-interval lines");
  return command;
}

int ExecuteSweep(const SweepOptions& o, const std::string& command_line) {
  auto campaign = LoadCampaign(o.file);
  if (!campaign.ok()) return PrintError(campaign.error());
  auto cells = ExpandCampaign(*campaign);
  if (!cells.ok()) return PrintError(cells.error());
  if (o.dry_run) {
    PrintPlan(*campaign, *cells, o.file, std::cout);
    return 0;
  }
  if (Status allowed = CheckCampaignDevices(*campaign, *cells, o.allow_destroy);
      !allowed.ok()) {
    return PrintError(allowed.error());
  }
  const std::string database = o.db.value_or(DefaultDatabasePath());
  if (Status usable = CheckStoreBeforeWriting(database); !usable.ok()) {
    return PrintError(usable.error());  // checked once: cells skip it
  }
  auto store = CampaignStore::Open(database);
  if (!store.ok()) return PrintError(store.error());
  auto runs = RunStore::Open(database);
  if (!runs.ok()) return PrintError(runs.error());
  const std::string file_path = AbsolutePath(o.file);
  std::optional<int64_t> resumed;
  if (o.resume) {
    auto found = FindResumable(*store, *campaign, *cells, file_path);
    if (!found.ok()) return PrintError(found.error());
    resumed = *found;
  }
  // What is mounted at the mount steps' points must be the campaign's own
  // (a resumed campaign's, left by a killed sweep), checked before anything
  // is touched.
  std::vector<MadeMount> made;
  if (resumed) {
    auto mounts = store->Mounts(*resumed);
    if (!mounts.ok()) return PrintError(mounts.error());
    made = *mounts;
  }
  if (Status free = CheckCampaignMountPoints(*campaign, MountLedger(made, {}));
      !free.ok()) {
    return PrintError(free.error());
  }
  int64_t id = 0;
  if (resumed) {
    if (Status claimed = store->Claim(*resumed); !claimed.ok()) {
      Error error = claimed.error();
      error.message = "--resume: " + error.message;
      return PrintError(error);
    }
    id = *resumed;
  } else {
    auto latest = store->LatestForFile(file_path);
    if (!latest.ok()) return PrintError(latest.error());
    if (*latest && (*latest)->status == CampaignStatus::kInterrupted) {
      std::cout << fmt::format(
          "note: campaign {} from this file was interrupted; starting a new "
          "one (`--resume` would have continued it)\n",
          (*latest)->id);
    }
    auto created = store->Create(*campaign, file_path, *cells, command_line);
    if (!created.ok()) return PrintError(created.error());
    id = *created;
  }
  auto mounts = store->Mounts(id);
  if (!mounts.ok()) return PrintError(mounts.error());
  CampaignStore& campaign_store = *store;
  MountLedger ledger(*mounts,
                     [&campaign_store, id](const MadeMount& mount, bool made) {
                       return campaign_store.SaveMount(id, mount, made);
                     });
  auto stored = store->Cells(id);
  if (!stored.ok()) return PrintError(stored.error());

  const bool terminal = isatty(STDOUT_FILENO) != 0;
  const int total = static_cast<int>(cells->size());
  int finished = 0;
  std::chrono::nanoseconds estimated_left{0};
  for (size_t i = 0; i < cells->size(); ++i) {
    if ((*stored)[i].finished()) {
      ++finished;
    } else {
      estimated_left += EstimatedCellTime(*campaign, (*cells)[i]);
    }
  }
  std::cout << fmt::format(
      "campaign {} \"{}\": {} cells{}, stored in {}\n", id, campaign->name,
      total, finished ? fmt::format(", {} finished before", finished) : "",
      database);

  // ETA: the plan's estimate for the cells left, scaled by how much longer
  // than estimated the cells of this session took (resets, layouts).
  std::chrono::nanoseconds estimated_done{0};
  Clock::duration actual_done{0};
  int failed = 0;
  bool interrupted = false;
  bool ran_one = false;
  for (size_t i = 0; i < cells->size() && !interrupted; ++i) {
    const CampaignCell& cell = (*cells)[i];
    const StoredCell& before = (*stored)[i];
    if (before.finished()) continue;
    const double scale =
        estimated_done.count() > 0
            ? std::max(1.0, std::chrono::duration<double>(actual_done).count() /
                                std::chrono::duration<double>(estimated_done).count())
            : 1.0;
    std::cout << fmt::format(
        "\n[{}] cell {}/{}  {}  ({} of {} done, ETA {})\n", Bar(1.0 * finished / total),
        cell.index + 1, total, CellParametersText(cell), finished, total,
        FormatDuration(std::chrono::duration_cast<std::chrono::seconds>(
            estimated_left * scale)));
    if (before.attempts > 0) {
      if (Status discarded = DiscardPartialRuns(*runs, id, cell, std::cout);
          !discarded.ok()) {
        return PrintError(discarded.error());
      }
    }
    if (Status started = store->StartCell(id, cell.index); !started.ok()) {
      return PrintError(started.error());
    }
    const auto cell_start = Clock::now();
    json reset_record = json::array();
    const CellOutcome outcome =
        RunCell(*campaign, cell, id, o, command_line, database, terminal,
                !ran_one, reset_record, *store, ledger);
    ran_one = true;
    if (Status recorded = store->FinishCell(id, cell.index, outcome.status,
                                            reset_record, outcome.error);
        !recorded.ok()) {
      return PrintError(recorded.error());
    }
    const auto cell_estimate = EstimatedCellTime(*campaign, cell);
    estimated_left -= cell_estimate;
    estimated_done += cell_estimate;
    actual_done += Clock::now() - cell_start;
    switch (outcome.status) {
      case CellStatus::kInterrupted: interrupted = true; break;
      case CellStatus::kFailed:
        ++failed;
        ++finished;
        std::cout << fmt::format("cell {} failed: {}\n", cell.index + 1, outcome.error);
        if (o.stop_on_error) interrupted = true;
        break;
      default: ++finished; break;
    }
  }

  if (Status unmounted = ReleaseCampaignMounts(ledger, std::cout);
      !unmounted.ok()) {
    std::cerr << "warning: " << unmounted.error().message << "\n";
  }
  const bool done = finished == total;
  if (Status closed = store->Finish(
          id, done ? CampaignStatus::kFinished : CampaignStatus::kInterrupted);
      !closed.ok()) {
    return PrintError(closed.error());
  }
  PrintCellTable(*store, *runs, id);
  if (!done) {
    std::cout << fmt::format(
        "\ncampaign {} stopped after {} of {} cells; `flashmark sweep {} "
        "--resume` continues at the first unfinished cell\n",
        id, finished, total, o.file);
    return failed > 0 && o.stop_on_error ? kRuntimeExit : kInterruptedExit;
  }
  std::cout << fmt::format(
      "\ncampaign {} finished: {} cells ok, {} failed — `flashmark report "
      "--campaign {} --html sweep.html` draws it\n",
      id, total - failed, failed, id);
  return failed > 0 ? kRuntimeExit : 0;
}

}  // namespace flashmark
