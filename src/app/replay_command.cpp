#include "app/replay_command.h"

#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <memory>

#include "app/print_error.h"
#include "campaign/replay_run.h"
#include "report/json_run_writer.h"
#include "report/text_escape.h"
#include "store/store_file.h"

namespace flashmark {

CLI::App* AddReplayCommand(CLI::App& app, ReplayOptions& o) {
  CLI::App* replay = app.add_subcommand(
      "replay",
      "Replay a stored block IO trace onto files or block devices, recorded "
      "as a run with its fidelity");
  replay
      ->add_option("TRACE", o.trace,
                   "the trace's id (`flashmark list --traces`)")
      ->required();
  replay->add_option("TARGET", o.targets,
                     "an existing file or a block device per traced device: "
                     "device i of the trace onto TARGET i");
  replay->add_option(
      "--timing", o.timing,
      "original: each IO at its recorded time; scaled:X: the times divided "
      "by X (scaled:2 twice as fast); afap: as fast as possible, at most the "
      "recorded queue depth in flight [original]");
  replay->add_option(
      "--map", o.map,
      "when a target is smaller than its traced device: linear (offsets "
      "scaled by target/trace), modulo (offset mod target, an IO crossing "
      "the end moved back to end there) or wrap (offset mod target, an IO "
      "crossing the end starts over at 0); offsets keep their 4 KiB "
      "alignment [none: a larger trace is refused]");
  replay
      ->add_option("--allow-destroy", o.allow_destroy,
                   "block device whose contents may be destroyed (repeat)")
      ->allow_extra_args(false);
  replay->add_option("--engine", o.engine,
                     "io_uring, libaio or psync [io_uring where it works, "
                     "else libaio]");
  replay->add_option(
      "--iodepth", o.iodepth,
      "for a trace without completion times (an fio iolog): "
      "the most IOs in flight [32 with --timing afap, else 256]");
  replay->add_flag("--buffered", o.buffered,
                   "through the page cache (by default each IO is O_DIRECT, "
                   "as the traced requests reached the device)");
  replay->add_flag("-q,--quiet", o.quiet, "no per-interval lines");
  replay->add_option_function<std::string>(
      "--json", [&o](const std::string& value) { o.json = value; },
      "write the replay's run as JSON to FILE (- for stdout)");
  replay->add_option_function<std::string>(
      "--db", [&o](const std::string& value) { o.db = value; },
      "results database holding the trace [$FLASHMARK_DB or ./flashmark.db]");
  replay->add_flag("--no-db", o.no_db, "do not store the replay's run");
  replay->add_option("--label", o.label, "a name for the run in the store");
  return replay;
}

int ExecuteReplayCommand(const ReplayOptions& options,
                         const std::string& command_line) {
  ReplaySettings settings;
  const std::string& text = options.trace;
  const auto [end, error] = std::from_chars(
      text.data(), text.data() + text.size(), settings.trace_id);
  if (error != std::errc() || end != text.data() + text.size() ||
      settings.trace_id <= 0) {
    return PrintError(UsageError(
        fmt::format("TRACE \"{}\" is not a trace id", TerminalText(text)),
        "`flashmark list --traces` lists them"));
  }
  auto timing = ParseReplayTiming(options.timing);
  if (!timing.ok()) return PrintError(timing.error());
  auto map = ParseTraceOffsetMap(options.map);
  if (!map.ok()) return PrintError(map.error());
  if (options.iodepth < 0) {
    return PrintError(UsageError(
        fmt::format("--iodepth: {} is not a positive number", options.iodepth),
        "try --iodepth 32"));
  }
  settings.targets = options.targets;
  settings.timing = *timing;
  settings.map = *map;
  settings.allow_destroy = options.allow_destroy;
  settings.engine = options.engine;
  settings.iodepth = options.iodepth;
  settings.direct = !options.buffered;
  settings.quiet = options.quiet;
  settings.database = options.db.value_or(DefaultDatabasePath());
  settings.no_db = options.no_db;
  settings.command_line = command_line;
  settings.labels = RunLabels{options.label, {}, "flashmark", ""};
  std::ostream& console = options.json == "-" ? std::cerr : std::cout;
  settings.console = &console;
  std::unique_ptr<JsonRunWriter> json;
  if (options.json) {
    json = std::make_unique<JsonRunWriter>(*options.json, std::cout, std::cerr);
    auto checked = json->Check();
    if (!checked.ok()) return PrintError(checked.error());
    settings.observers.push_back(json.get());
  }
  auto result = PerformReplay(settings);
  if (!result.ok()) return PrintError(result.error());
  if (result->run_id != 0) {
    console << fmt::format(
        "  run {} stored in {} — `flashmark show {}` and `flashmark analyze "
        "{}` show it with its fidelity\n",
        result->run_id, settings.database, result->run_id, result->run_id);
  }
  const RunResult& run = result->result;
  switch (run.status) {
    case RunStatus::kOk:
      return json == nullptr || json->complete() ? 0 : kRuntimeExit;
    case RunStatus::kInterrupted:
      return kInterruptedExit;
    default:
      std::cerr << "error: " << run.error->message << "\n";
      return kRuntimeExit;
  }
}

}  // namespace flashmark
