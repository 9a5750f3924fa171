#include "app/sweep_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>

#include "analysis/run_analysis.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "campaign/cell_fit.h"
#include "campaign/cell_reset.h"
#include "campaign/round_verdict.h"
#include "campaign/sweep_cell.h"
#include "campaign/sweep_plan.h"
#include "campaign/sweep_resume.h"
#include "common/units.h"
#include "config/campaign_plan.h"
#include "config/campaign_spec.h"
#include "report/console_reporter.h"
#include "report/headline_text.h"
#include "report/text_escape.h"
#include "store/campaign_store.h"
#include "store/run_store.h"
#include "store/store_file.h"

namespace flashmark {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

std::string AbsolutePath(const std::string& path) {
  std::error_code error;
  auto absolute =
      std::filesystem::weakly_canonical(std::filesystem::absolute(path), error);
  return error ? path : absolute.string();
}

std::string Bar(double fraction) {
  constexpr int kWidth = 20;
  const int filled = static_cast<int>(std::lround(fraction * kWidth));
  return std::string(filled, '#') + std::string(kWidth - filled, '.');
}

// One row per cell; columns as wide as their longest entry, so long
// parameter names and values keep the table aligned.
void PrintCellTable(CampaignStore& store, RunStore& runs, int64_t campaign_id) {
  auto cells = store.Cells(campaign_id);
  if (!cells.ok()) return;
  struct Row {
    std::string cell, parameters, status, run, headline, iops, p99, error;
  };
  std::vector<Row> rows;
  std::vector<RunResult> measured;  // for the rule note
  for (const auto& cell : *cells) {
    Row row{std::to_string(cell.index + 1),
            "",
            CellStatusName(cell.status),
            cell.run_id ? std::to_string(*cell.run_id) : "-",
            "-",
            "-",
            "-",
            cell.error};
    for (const auto& [key, value] : cell.parameters) {
      row.parameters += (row.parameters.empty() ? "" : " ") + key + "=" + value;
    }
    row.parameters = TerminalText(row.parameters);
    if (cell.run_id) {
      auto stored = runs.LoadRun(*cell.run_id, false);
      auto headline = stored.ok() ? DefaultHeadline(stored->run)
                                  : Result<Headline>(stored.error());
      if (headline.ok()) {
        const double iops =
            HeadlineWindowSummary(stored->run, Metric::kIops, *headline).median;
        row.headline = HeadlineCell(
            *headline, DescribeMetric(HeadlineMetric(stored->run)));
        row.iops = FormatCount(iops);
        row.p99 = FormatLatency(stored->run.summary.latency.p99);
        measured.push_back(std::move(stored->run));
      }
    }
    rows.push_back(std::move(row));
  }
  Row header{"cell", "parameters", "status", "run", "headline median",
             "IOPS", "p99 lat",    ""};
  size_t parameters = header.parameters.size(), status = header.status.size(),
         headline = header.headline.size();
  for (const Row& row : rows) {
    parameters = std::max(parameters, row.parameters.size());
    status = std::max(status, row.status.size());
    headline = std::max(headline, row.headline.size());
  }
  const auto print = [&](const Row& row) {
    std::cout << fmt::format(
        "  {:>4}  {:<{}}  {:<{}}  {:>5}  {:<{}}  {:>9}  {:>9}\n", row.cell,
        row.parameters, parameters, row.status, status, row.run, row.headline,
        headline, row.iops, row.p99);
    if (!row.error.empty()) {
      std::cout << "        error: " << TerminalText(row.error) << "\n";
    }
  };
  std::cout << "\n";
  print(header);
  for (const Row& row : rows) print(row);
  std::vector<const RunResult*> judged;
  for (const RunResult& run : measured) judged.push_back(&run);
  std::cout << "  " << HeadlineRuleNote(judged)
            << "; IOPS over the same window, p99 over the whole run\n";
}

// Before a round of a campaign with [campaign.steady-state]: the verdict
// so far, and when the rounds are steady, every cell left is skipped.
// Returns how many were.
Result<int> SkipRoundsIfSteady(const CampaignSpec& campaign,
                               const std::vector<CampaignCell>& cells,
                               int64_t id, CampaignStore& store,
                               RunStore& runs) {
  if (!campaign.round_steady_state) return 0;
  auto stored = store.Cells(id);
  if (!stored.ok()) return stored.error();
  auto verdict = EvaluateRounds(campaign, cells, *stored, runs);
  if (!verdict.ok()) return verdict.error();
  if (verdict->values.empty()) return 0;
  std::cout << fmt::format(
      "\nrounds: {} done of at most {}; {}\n", verdict->values.size(),
      campaign.repeats,
      RoundVerdictText(*campaign.round_steady_state, *verdict));
  if (!verdict->steady()) return 0;
  int skipped = 0;
  for (const StoredCell& cell : *stored) {
    if (cell.finished()) continue;
    if (Status done = store.FinishCell(id, cell.index, CellStatus::kSkipped,
                                       json::array(), "");
        !done.ok()) {
      return done.error();
    }
    ++skipped;
  }
  std::cout << fmt::format("rounds: steady; the {} cells left are skipped\n",
                           skipped);
  return skipped;
}

// The time left for the unfinished cells from `next` on, of the first
// `rounds` rounds only (all of them when rounds is 0).
std::chrono::nanoseconds EstimatedTimeLeft(
    const CampaignSpec& campaign, const std::vector<CampaignCell>& cells,
    const std::vector<StoredCell>& stored, size_t next, int rounds) {
  std::chrono::nanoseconds left{0};
  for (size_t j = next; j < cells.size(); ++j) {
    if (stored[j].finished()) continue;
    if (rounds > 0 && cells[j].repeat >= rounds) continue;
    left += EstimatedCellTime(campaign, cells[j]);
  }
  return left;
}

}  // namespace

CLI::App* AddSweepCommand(CLI::App& app, SweepOptions& o) {
  CLI::App* command = app.add_subcommand(
      "sweep",
      "Run a campaign of runs from a TOML file, a fresh device per cell");
  command->add_option("CAMPAIGN", o.file, "campaign file (see examples/)")
      ->required();
  command->add_flag("--dry-run", o.dry_run,
                    "print the expanded plan, run nothing");
  command->add_flag(
      "--resume", o.resume,
      "continue the interrupted campaign from this file at its first "
      "unfinished cell");
  command->add_flag(
      "--stop-on-error", o.stop_on_error,
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
  const SweepPlan plan{*campaign, *cells, AbsolutePath(o.file),
                       fmt::format("flashmark sweep {} --resume", o.file)};
  return RunSweep(plan, o, command_line);
}

int RunSweep(const SweepPlan& plan, const SweepOptions& o,
             const std::string& command_line) {
  const CampaignSpec* campaign = &plan.campaign;
  const std::vector<CampaignCell>* cells = &plan.cells;
  if (o.dry_run) {
    PrintPlan(*campaign, *cells, o.file, std::cout);
    // What the real run will ask for: every device it destroys.
    std::vector<std::string> missing;
    for (const DestroyedDevice& d :
         DestroyedDevices(*campaign, *cells, o.allow_destroy)) {
      std::cout << fmt::format("{}: destroys {} ({}){}{}\n",
                               d.allowed ? "note" : "warning", d.device,
                               fmt::join(d.steps, ", "),
                               d.exists ? "" : ", not present now",
                               d.allowed ? ", allowed by --allow-destroy"
                                         : ", not named in --allow-destroy");
      if (!d.allowed) missing.push_back("--allow-destroy=" + d.device);
    }
    if (!missing.empty()) {
      std::cout << fmt::format("the sweep will refuse to start without: {}\n",
                               fmt::join(missing, " "));
    }
    const std::vector<CellMisfit> misfits =
        CellsThatDoNotFit(*campaign, *cells);
    for (const CellMisfit& misfit : misfits)
      std::cout << "warning: " << MisfitText(misfit) << "\n";
    if (!misfits.empty()) {
      std::cout << "the sweep will refuse to start: a cell's file set is "
                   "larger than its device\n";
    }
    return 0;
  }
  if (Status allowed = CheckCampaignDevices(*campaign, *cells, o.allow_destroy);
      !allowed.ok()) {
    return PrintError(allowed.error());
  }
  if (Status fits = CheckCellsFit(*campaign, *cells); !fits.ok()) {
    return PrintError(fits.error());
  }
  const std::string database = o.db.value_or(DefaultDatabasePath());
  if (Status usable = CheckStoreBeforeWriting(database); !usable.ok()) {
    return PrintError(usable.error());  // checked once: cells skip it
  }
  auto store = CampaignStore::Open(database);
  if (!store.ok()) return PrintError(store.error());
  auto runs = RunStore::Open(database);
  if (!runs.ok()) return PrintError(runs.error());
  const std::string& file_path = plan.identity;
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
  MountLedger ledger(
      *mounts, [&campaign_store, id](const MadeMount& mount, bool mounted) {
        return campaign_store.SaveMount(id, mount, mounted);
      });
  auto stored = store->Cells(id);
  if (!stored.ok()) return PrintError(stored.error());

  const bool terminal = isatty(STDOUT_FILENO) != 0;
  const int total = static_cast<int>(cells->size());
  int finished = 0;
  for (const StoredCell& cell : *stored) finished += cell.finished() ? 1 : 0;
  std::cout << fmt::format(
      "campaign {} \"{}\": {} cells{}, stored in {}\n", id, campaign->name,
      total, finished ? fmt::format(", {} finished before", finished) : "",
      database);

  // ETA: the plan's estimate for the cells left, scaled by how much longer
  // than estimated the cells of this session took (resets, layouts). With
  // steady-state rounds, at best the window holds at the first round it
  // can (the window's size, or this round: the rounds before it were not
  // steady) and at worst every round runs.
  const int window =
      campaign->round_steady_state ? campaign->round_steady_state->window : 0;
  std::chrono::nanoseconds estimated_done{0};
  Clock::duration actual_done{0};
  int failed = 0;
  bool interrupted = false;
  bool ran_one = false;
  for (size_t i = 0; i < cells->size() && !interrupted; ++i) {
    const CampaignCell& cell = (*cells)[i];
    const StoredCell& before = (*stored)[i];
    if (before.finished()) continue;
    if (i == 0 || (*cells)[i - 1].repeat != cell.repeat) {
      auto skipped = SkipRoundsIfSteady(*campaign, *cells, id, *store, *runs);
      if (!skipped.ok()) return PrintError(skipped.error());
      if (*skipped > 0) {
        finished += *skipped;
        break;
      }
    }
    const double scale =
        estimated_done.count() > 0
            ? std::max(
                  1.0,
                  std::chrono::duration<double>(actual_done).count() /
                      std::chrono::duration<double>(estimated_done).count())
            : 1.0;
    const auto eta = [&](int rounds) {
      return FormatDuration(
          std::chrono::duration_cast<std::chrono::nanoseconds>(
              EstimatedTimeLeft(*campaign, *cells, *stored, i, rounds) *
              scale));
    };
    const std::string worst = eta(0);
    const std::string best =
        window > 0 ? eta(std::max(window, cell.repeat + 1)) : worst;
    std::cout << fmt::format(
        "\n[{}] cell {}/{}  {}  ({} of {} done, ETA {})\n",
        Bar(1.0 * finished / total), cell.index + 1, total,
        CellParametersText(cell), finished, total,
        best == worst ? worst
                      : fmt::format("{} at best, {} at worst", best, worst));
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
    const bool first_of_session = !ran_one;
    const CellRunSettings cell_settings{o.allow_destroy, o.quiet,
                                        command_line,    database,
                                        terminal,        first_of_session};
    const CellOutcome outcome =
        RunCell(*campaign, cell, id, cell_settings, reset_record, *store,
                ledger, std::cout);
    ran_one = true;
    if (Status recorded = store->FinishCell(id, cell.index, outcome.status,
                                            reset_record, outcome.error);
        !recorded.ok()) {
      return PrintError(recorded.error());
    }
    // The session's first cell also ran the once-only steps (a purge, the
    // preconditioning): left out of the ETA's scale, which is for what
    // every cell repeats.
    if (!first_of_session) {
      estimated_done += EstimatedCellTime(*campaign, cell);
      actual_done += Clock::now() - cell_start;
    }
    switch (outcome.status) {
      case CellStatus::kInterrupted:
        interrupted = true;
        break;
      case CellStatus::kFailed:
        ++failed;
        ++finished;
        std::cout << fmt::format("cell {} failed: {}\n", cell.index + 1,
                                 outcome.error);
        if (o.stop_on_error) interrupted = true;
        break;
      default:
        ++finished;
        break;
    }
  }

  if (campaign->round_steady_state && !interrupted) {
    auto now = store->Cells(id);
    if (!now.ok()) return PrintError(now.error());
    auto verdict = EvaluateRounds(*campaign, *cells, *now, *runs);
    if (!verdict.ok()) return PrintError(verdict.error());
    std::cout << fmt::format(
        "\nrounds: {}\n",
        RoundVerdictText(*campaign->round_steady_state, *verdict));
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
        "\ncampaign {} stopped after {} of {} cells; `{}` continues at the "
        "first unfinished cell\n",
        id, finished, total, plan.resume_command);
    return failed > 0 && o.stop_on_error ? kRuntimeExit : kInterruptedExit;
  }
  std::cout << fmt::format(
      "\ncampaign {} finished: {} cells ok, {} failed — `flashmark report "
      "--campaign {} --html sweep.html` draws it\n",
      id, total - failed, failed, id);
  return failed > 0 ? kRuntimeExit : 0;
}

}  // namespace flashmark
