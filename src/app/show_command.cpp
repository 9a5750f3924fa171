#include <fmt/format.h>

#include <iostream>
#include <optional>
#include <sstream>

#include "analysis/cancel.h"
#include "analysis/telemetry_summary.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "app/store_commands.h"
#include "app/text_output.h"
#include "app/trace_commands.h"
#include "common/local_time.h"
#include "common/shell_quote.h"
#include "common/units.h"
#include "config/run_options.h"
#include "config/tag_options.h"
#include "document/health_format.h"
#include "document/tool_report_format.h"
#include "report/console_reporter.h"
#include "report/replay_text.h"
#include "report/reproduce_text.h"
#include "report/stored_run_stream.h"
#include "report/telemetry_text.h"
#include "report/text_escape.h"
#include "store/campaign_store.h"
#include "system/interrupt_watch.h"

namespace flashmark {
namespace {

// The sweep cell this run was measured in (its campaign= and cell= tags)
// and its campaign: what was done to the device before it. None for a run
// outside a sweep, or when the campaign is no longer stored.
struct SweepCell {
  int64_t campaign = 0;
  StoredCell cell;
};

std::optional<SweepCell> SweepCellOf(const std::string& db_path,
                                     const StoredRun& stored) {
  std::optional<int64_t> campaign, cell;
  for (const auto& [key, value] : stored.labels.tags) {
    if (key != kCampaignTag && key != kCellTag) continue;
    if (auto number = ParseRunId(value); number.ok()) {
      (key == kCampaignTag ? campaign : cell) = *number;
    }
  }
  if (!campaign || !cell) return std::nullopt;
  auto store = CampaignStore::OpenForReading(db_path);
  if (!store.ok()) return std::nullopt;
  auto cells = store->Cells(*campaign);
  if (!cells.ok()) return std::nullopt;
  for (StoredCell& found : *cells) {
    if (found.index + 1 == *cell) return SweepCell{*campaign, std::move(found)};
  }
  return std::nullopt;
}

// One command a reset step ran: its argv, outcome, time and the last
// lines of its output.
void PrintResetCommand(const nlohmann::json& command, std::ostream& out) {
  const auto t = [](const std::string& text) { return TerminalText(text); };
  const int status = command.value("exit_status", -1);
  const int signal = command.value("signal", 0);
  out << fmt::format(
      "    {}  -> {}, {:.2f} s\n",
      t(ShellJoin(command.value("argv", std::vector<std::string>{}))),
      command.value("timed_out", false) ? std::string("timed out")
      : signal != 0 ? fmt::format("killed by signal {}", signal)
                    : fmt::format("exit status {}", status),
      command.value("seconds", 0.0));
  std::vector<std::string> lines;
  std::istringstream output(command.value("output", ""));
  for (std::string line; std::getline(output, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  for (size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size();
       ++i) {
    out << "      | " << t(lines[i]) << "\n";
  }
}

// The cell's reset steps as recorded (cell_reset, device_reset): device
// steps with their commands, exec with its command, idle and
// precondition with what they did.
void PrintResetSteps(const SweepCell& sweep, std::ostream& out) {
  const auto t = [](const std::string& text) { return TerminalText(text); };
  const nlohmann::json& steps = sweep.cell.reset;
  out << fmt::format("reset    before this run (campaign {}, cell {}):{}\n",
                     sweep.campaign, sweep.cell.index + 1,
                     steps.empty() ? " no step" : "");
  for (const auto& step : steps) {
    const std::string kind = step.value("step", "");
    if (kind == "idle") {
      out << fmt::format("  idle {:g} s\n", step.value("seconds", 0.0));
    } else if (kind == "precondition") {
      out << fmt::format(
          "  precondition {}: {}, {} written in {:.0f} s ({})\n",
          t(step.value("method", "")), t(step.value("workload", "")),
          FormatBytes(step.value("bytes_written", uint64_t{0})),
          step.value("seconds", 0.0), t(step.value("status", "")));
    } else {
      out << fmt::format("  {}{}{}\n", t(kind),
                         step.contains("device")
                             ? " " + t(step["device"].get<std::string>())
                             : "",
                         step.contains("note")
                             ? " (" + t(step["note"].get<std::string>()) + ")"
                             : "");
    }
    if (step.contains("argv")) PrintResetCommand(step, out);
    for (const auto& command :
         step.value("commands", nlohmann::json::array())) {
      PrintResetCommand(command, out);
    }
  }
}

// The shell commands a cell's reset steps ran (those that succeeded, in
// order), "sleep N" for an idle step and a comment for a precondition:
// what to type before the run's own command to measure the cell again.
std::vector<std::string> ResetCommands(const nlohmann::json& steps) {
  std::vector<std::string> lines;
  const auto add = [&lines](const nlohmann::json& command) {
    if (command.value("exit_status", -1) != 0) return;
    lines.push_back(
        ShellJoin(command.value("argv", std::vector<std::string>{})));
  };
  for (const auto& step : steps) {
    const std::string kind = step.value("step", "");
    if (kind == "idle") {
      lines.push_back(fmt::format("sleep {:g}", step.value("seconds", 0.0)));
    } else if (kind == "precondition") {
      lines.push_back(fmt::format("# precondition {}: {}",
                                  step.value("method", ""),
                                  step.value("workload", "")));
    }
    if (step.contains("argv")) add(step);
    for (const auto& command :
         step.value("commands", nlohmann::json::array())) {
      add(command);
    }
  }
  return lines;
}

void PrintRun(const StoredRun& stored, const std::optional<SweepCell>& sweep,
              std::ostream& out, const CancelToken& cancel) {
  const RunResult& run = stored.run;
  // Every text the user, an imported file or the system gave: shown, never
  // obeyed, by a terminal.
  const auto t = [](const std::string& text) { return TerminalText(text); };
  out << fmt::format(
      "run {}{}  {}  started {}", stored.id,
      stored.labels.label.empty() ? "" : "  " + t(stored.labels.label),
      RunStatusName(run.status),
      LocalTimeText(run.start_unix_ns, "%Y-%m-%d %H:%M:%S %z"));
  if (stored.labels.source != "flashmark") {
    out << fmt::format("  (imported from {})", t(stored.labels.source));
  }
  out << "\n";
  if (!stored.labels.tags.empty()) {
    out << "tags    ";
    for (const auto& [key, value] : stored.labels.tags) {
      out << fmt::format(" {}={}", t(key), t(value));
    }
    out << "\n";
  }
  out << fmt::format("workload {}\n", t(DescribeWorkload(run.spec)));
  if (run.imported.empty()) {
    out << fmt::format("tool     flashmark {} ({})\n", t(run.tool_version),
                       t(run.git_revision));
  } else {
    out << fmt::format("tool     {} (imported from {}, SHA-256 {})\n",
                       t(run.tool_version), t(run.imported.file),
                       t(stored.labels.source_hash.substr(0, 16)));
  }
  const Environment& env = run.environment;
  if (!env.host.empty()) {  // (imported runs name no host)
    out << fmt::format("host     {}  {}  {} x {}  {} memory\n", t(env.host),
                       t(env.kernel), env.cpu_count, t(env.cpu_model),
                       FormatBytes(env.memory_bytes));
    out << fmt::format("         CPU governor {}\n",
                       env.cpu_governor.empty()     ? "-"
                       : env.cpu_governor == "none" ? "none (no cpufreq)"
                                                    : t(env.cpu_governor));
  }
  if (!env.engine_setup.empty()) {
    out << "engine   " << t(env.engine_setup) << "\n";
  }
  if (!env.cluster.empty()) out << "cluster  " << t(env.cluster) << "\n";
  for (const std::string& warning : env.warnings) {
    out << "warning  " << t(warning) << "\n";
  }
  for (const auto& target : env.targets) {
    out << fmt::format(
        "target   {} ({}, {}{})", target.path.empty() ? "-" : t(target.path),
        t(target.kind), FormatBytes(target.bytes),
        target.file_count > 1 ? fmt::format(" in {} files", target.file_count)
                              : "");
    if (!target.filesystem.empty()) {
      out << fmt::format(": {} on {}, mounted at {} with {}",
                         t(target.filesystem), t(target.device),
                         t(target.mount_point), t(target.mount_options));
    } else if (!target.device.empty()) {
      out << ": device " << t(target.device);
    }
    out << "\n";
    if (!target.device_name.empty()) {
      out << fmt::format(
          "         disk {}: model {}, serial {}, firmware {}, {}, {}, "
          "scheduler {}, nr_requests {}\n",
          t(target.device_name), target.model.empty() ? "-" : t(target.model),
          target.serial.empty() ? "-" : t(target.serial),
          target.firmware.empty() ? "-" : t(target.firmware),
          FormatBytes(target.capacity_bytes),
          target.rotational ? "rotational" : "non-rotational",
          target.scheduler.empty() ? "-" : t(target.scheduler),
          target.queue_depth);
      if (!target.transport.empty()) {  // recorded since the device inventory
        out << fmt::format(
            "         {}, sectors {}/{} (logical/physical), write cache {}, "
            "poll queues {}, discard {}, NUMA node {}\n",
            t(target.transport), target.logical_sector_size,
            target.physical_sector_size,
            target.write_cache.empty() ? "-" : t(target.write_cache),
            !target.io_poll   ? "-"
            : *target.io_poll ? "yes"
                              : "no",
            target.discard_granularity > 0
                ? FormatBytes(target.discard_granularity) + " granularity"
                : "no",
            target.numa_node < 0 ? "-" : std::to_string(target.numa_node));
      }
      if (target.health) {  // recorded since per-run health
        out << "         " << t(HealthLine(*target.health)) << "\n";
      }
    }
  }
  if (sweep) PrintResetSteps(*sweep, out);
  PrintSummary(run, out, cancel);
  if (const std::string* tbw = FindTag(stored.labels.tags, "tbw")) {
    out << "  " << t(EnduranceLine(SummarizeTelemetry(run), *tbw)) << "\n";
  }
  if (run.replay) out << ReplayOutcomeText(*run.replay);
  std::ostringstream tool_report;
  PrintToolReport(run.imported, tool_report);
  // (the imported file's words, line by line)
  std::istringstream lines(tool_report.str());
  for (std::string line; std::getline(lines, line);) out << t(line) << "\n";
  // (several lines for a sweep cell that ran on several targets at once)
  const auto indented = [&t](const std::string& text) {
    std::string joined;
    std::istringstream text_lines(text);
    for (std::string line; std::getline(text_lines, line);) {
      joined += (joined.empty() ? "" : "\n  ") + t(line);
    }
    return joined;
  };
  out << "command  " << indented(run.command_line) << "\n";
  out << (run.imported.empty() ? "reproduce with\n"
                               : "the same workload with flashmark\n");
  if (sweep) {
    const std::vector<std::string> reset = ResetCommands(sweep->cell.reset);
    if (!reset.empty()) {
      out << fmt::format(
          "  # campaign {}, cell {}: its reset steps, then its run\n",
          sweep->campaign, sweep->cell.index + 1);
    }
    for (const std::string& line : reset) out << "  " << t(line) << "\n";
  }
  out << "  " << indented(ReproduceText(stored)) << "\n";
  if (sweep) {
    out << fmt::format(
        "  # or the whole campaign, from its file as stored: flashmark show "
        "--campaign {} > campaign.toml && flashmark sweep campaign.toml\n",
        sweep->campaign);
  }
}

// `show --campaign ID`: the campaign file, byte for byte as the sweep read
// it, on stdout.
int ShowCampaignFile(const StoreCommandOptions& options) {
  auto id = ParseRunId(*options.campaign);
  if (!id.ok()) {
    return PrintError(UsageError(
        fmt::format("--campaign: \"{}\" is not a campaign id",
                    *options.campaign),
        "`flashmark list --campaigns` lists the campaigns and their ids"));
  }
  auto runs = OpenStoreToRead(options.db);
  if (!runs.ok()) return PrintError(runs.error());
  auto store = CampaignStore::OpenForReading(runs->path());
  if (!store.ok()) return PrintError(store.error());
  auto campaign = store->Find(*id);
  if (!campaign.ok()) return PrintError(campaign.error());
  if (campaign->file_text.empty()) {
    return PrintError(UsageError(
        fmt::format("campaign {} was stored by a flashmark that kept no copy "
                    "of its file; it ran from {} (SHA-256 {})",
                    *id, campaign->file_path, campaign->file_hash),
        "sweep again from that file (campaigns stored since the store's "
        "schema v8 keep theirs)"));
  }
  std::cout << campaign->file_text;
  return 0;
}

}  // namespace

int ExecuteShow(const StoreCommandOptions& options) {
  if (options.campaign) return ShowCampaignFile(options);
  if (options.trace) return ExecuteShowTrace(options);
  if (options.runs.empty()) {
    return PrintError(UsageError(
        "show: which run? give a run id (or --campaign ID for a campaign's "
        "file)",
        "`flashmark list` lists the stored runs"));
  }
  auto id = ParseRunId(options.runs.front());
  if (!id.ok()) return PrintError(id.error());
  // SIGINT/SIGTERM end a long read with 130.
  const InterruptWatch watch;
  auto store = OpenStoreToRead(options.db);
  if (!store.ok()) return PrintError(store.error());
  store->StopWhen(watch.flag());
  // The intervals' counters only: the text's latency is the summary's, and
  // the JSON streams each interval's histograms (a long run's would take
  // gigabytes).
  auto stored = store->LoadRun(*id, /*with_histograms=*/false);
  if (!stored.ok()) {
    return PrintError(watch.interrupted() ? InterruptedError()
                                          : stored.error());
  }
  const CancelToken cancel(watch.flag());
  const std::optional<SweepCell> sweep = SweepCellOf(store->path(), *stored);
  if (options.json) {
    nlohmann::json doc = StoredRunJson(*stored, cancel, false);
    if (sweep) {
      doc["sweep_cell"] = {{"campaign", sweep->campaign},
                           {"cell", sweep->cell.index + 1},
                           {"status", CellStatusName(sweep->cell.status)},
                           {"reset", sweep->cell.reset}};
    }
    auto out = TextOutput::Open(std::nullopt);
    if (!out.ok()) return PrintError(out.error());
    const Status produced = StreamRunJson(
        *store, *stored, doc,
        [&out](std::string_view text) { return out->Write(text); });
    return out->Finish(produced, watch.interrupted());
  }
  std::ostringstream text;
  PrintRun(*stored, sweep, text, cancel);
  if (watch.interrupted()) return PrintError(InterruptedError());
  std::cout << text.str();
  return 0;
}

}  // namespace flashmark
