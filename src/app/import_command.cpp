#include "app/import_command.h"

#include <fmt/format.h>

#include <iostream>

#include "app/print_error.h"
#include "app/store_access.h"
#include "app/trace_commands.h"
#include "config/tag_options.h"
#include "report/console_reporter.h"
#include "report/text_escape.h"
#include "store/fio_import.h"
#include "store/flashmark_import.h"
#include "store/store_file.h"
#include "store/sysbench_import.h"

namespace flashmark {
namespace {

void AddCommonOptions(CLI::App* command, ImportOptions& o) {
  AddDatabaseOption(command, o.db);
  command->add_option(
      "--label", o.label,
      "a name for the imported runs [the job name or file name]");
  command->add_option("--tag", o.tags,
                      "key=value filed with the runs (repeat)")
      ->allow_extra_args(false);  // one value each time: FILE stays a FILE
  command->add_option_function<std::string>(
      "--price", [&o](const std::string& v) { o.price = v; },
      "what the device costs (any currency): compare and report give the "
      "cost per GB, per MiB/s and per kIOPS");
  command->add_flag("--again", o.again,
                    "import a file even if it was imported before");
}

Result<std::vector<StoredRun>> ParseFile(const ImportCommands& commands,
                                         const ImportOptions& o,
                                         const std::string& path) {
  auto file = ReadImportFile(path);
  if (!file.ok()) return file.error();
  if (commands.sysbench->parsed() || commands.flashmark->parsed()) {
    auto run = commands.sysbench->parsed() ? ParseSysbenchOutput(*file)
                                           : ParseFlashmarkDocument(*file);
    if (!run.ok()) return run.error();
    return std::vector<StoredRun>{std::move(*run)};
  }
  FioLogReader logs;
  if (o.logs) {
    logs = [prefix = *o.logs](int first, int count, bool whole_file) {
      return ReadFioLogs(prefix, first, count, whole_file);
    };
  }
  return ParseFioJson(*file, logs);
}

}  // namespace

ImportCommands AddImportCommand(CLI::App& app, ImportOptions& o) {
  CLI::App* import = app.add_subcommand(
      "import",
      "Bring fio, sysbench and flashmark run documents into the store");
  import->require_subcommand(1);
  ImportCommands commands;
  commands.sysbench =
      import->add_subcommand("sysbench",
                             "sysbench fileio output (1.0.x), with or without "
                             "--report-interval lines");
  commands.sysbench
      ->add_option("FILE", o.files, "saved output of `sysbench fileio ... run`")
      ->required();
  AddCommonOptions(commands.sysbench, o);
  commands.fio = import->add_subcommand(
      "fio", "fio JSON or JSON+ output (3.x): one run per job or group");
  commands.fio
      ->add_option("FILE", o.files, "fio --output-format=json[+] output")
      ->required();
  commands.fio->add_option_function<std::string>(
      "--logs", [&o](const std::string& v) { o.logs = v; },
      "PREFIX given to write_bw_log/write_iops_log (and write_lat_log, "
      "write_hist_log): their lines become the intervals");
  AddCommonOptions(commands.fio, o);
  commands.flashmark = import->add_subcommand(
      "flashmark",
      "flashmark's own run documents (run --json FILE): a run kept outside "
      "the store, or a cluster rank's own file, which joins its group");
  commands.flashmark
      ->add_option("FILE", o.files, "a run document written by --json")
      ->required();
  AddCommonOptions(commands.flashmark, o);
  commands.fio_iolog = import->add_subcommand(
      "fio-iolog",
      "fio's iolog (write_iolog, versions 2 and 3) as a block IO trace");
  commands.blktrace = import->add_subcommand(
      "blktrace",
      "blktrace's binary files (DEV.blktrace.N, or their stem DEV) or "
      "blkparse's text output (its default format) as a block IO trace");
  for (CLI::App* trace : {commands.fio_iolog, commands.blktrace}) {
    trace->add_option("FILE", o.files, "the file to read")->required();
    AddDatabaseOption(trace, o.db);
    trace->add_flag("--again", o.again,
                    "import a file even if it was imported before");
  }
  return commands;
}

int ExecuteImport(const ImportCommands& commands, const ImportOptions& o) {
  if (commands.fio_iolog->parsed() || commands.blktrace->parsed()) {
    return ExecuteImportTraces(commands.fio_iolog->parsed()
                                   ? TraceFormat::kFioIolog
                                   : TraceFormat::kBlkparse,
                               o.files, o.db, o.again);
  }
  auto tags = ParseTagOptions(o.tags);
  if (!tags.ok()) return PrintError(tags.error());
  if (Status priced = AddPriceTag(o.price, *tags); !priced.ok()) {
    return PrintError(priced.error());
  }
  if (o.logs && o.files.size() != 1) {
    return PrintError(
        UsageError("--logs goes with one fio JSON file",
                   "import each file with its own --logs PREFIX"));
  }
  // The database is judged first (read only), and every file is read and
  // parsed before it is opened: bad input creates no database.
  const std::string database = o.db.value_or(DefaultDatabasePath());
  if (Status usable = CheckStoreBeforeWriting(database); !usable.ok()) {
    return PrintError(usable.error());
  }
  int status = 0;
  std::vector<std::pair<std::string, std::vector<StoredRun>>> parsed;
  for (const std::string& path : o.files) {
    auto runs = ParseFile(commands, o, path);
    if (!runs.ok()) {
      status = std::max(status, PrintError(runs.error()));
      continue;
    }
    for (StoredRun& run : *runs) {
      if (!o.label.empty()) {
        run.labels.label =
            runs->size() == 1 ? o.label : o.label + "-" + run.labels.label;
      }
      run.labels.tags.insert(run.labels.tags.end(), tags->begin(), tags->end());
    }
    parsed.emplace_back(path, std::move(*runs));
  }
  if (parsed.empty()) return status;
  auto store = RunStore::Open(database);
  if (!store.ok()) return PrintError(store.error());

  for (const auto& [path, runs] : parsed) {
    auto ids = store->InsertRuns(runs, o.again);
    if (!ids.ok()) {
      status = std::max(status, PrintError(ids.error()));
      continue;
    }
    for (size_t i = 0; i < ids->size(); ++i) {
      const RunResult& run = runs[i].run;
      std::cout << fmt::format(
          "{}: run {} \"{}\" ({}, {} interval{})  {}\n", TerminalText(path),
          (*ids)[i], TerminalText(runs[i].labels.label),
          TerminalText(run.tool_version), run.intervals.size(),
          run.intervals.size() == 1 ? "" : "s", DescribeWorkload(run.spec));
    }
  }
  if (status == 0) {
    std::cout << fmt::format(
        "stored in {} — `flashmark show ID` for the tool's own "
        "figures, `flashmark analyze ID` for steady state\n",
        store->path());
  }
  return status;
}

}  // namespace flashmark
