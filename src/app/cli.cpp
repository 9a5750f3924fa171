#include "app/cli.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "app/analyze_command.h"
#include "app/capture_command.h"
#include "app/cleanup_command.h"
#include "app/cli_tree.h"
#include "app/command_examples.h"
#include "app/compare_command.h"
#include "app/devices_command.h"
#include "app/first_steps.h"
#include "app/history_command.h"
#include "app/import_command.h"
#include "app/manual_pages.h"
#include "app/print_error.h"
#include "app/pts_command.h"
#include "app/replay_command.h"
#include "app/report_command.h"
#include "app/run_command.h"
#include "app/serve_command.h"
#include "app/shell_completion.h"
#include "app/store_commands.h"
#include "app/sweep_command.h"
#include "app/verify_command.h"
#include "app/version_info.h"
#include "common/json_text.h"

namespace flashmark {
namespace {

void SetFooters(CLI::App& command) {
  const std::string footer =
      ExamplesFooter(CommandExamples(CommandPath(command)));
  if (!footer.empty()) command.footer(footer);
  for (CLI::App* sub :
       command.get_subcommands([](CLI::App*) { return true; })) {
    SetFooters(*sub);
  }
}

}  // namespace

struct Cli::State {
  CLI::App app{
      "flashmark: storage benchmarks for flash devices, with the method "
      "built in",
      "flashmark"};
  bool version = false;
  bool version_json = false;

  RunOptions run_options;
  AnalyzeOptions analyze_options;
  CompareOptions compare_options;
  HistoryCommandOptions history_options;
  ReportOptions report_options;
  SweepOptions sweep_options;
  PtsOptions pts_options;
  ImportOptions import_options;
  CaptureOptions capture_options;
  ReplayOptions replay_options;
  VerifyOptions verify_options;
  CleanupOptions cleanup_options;
  DevicesOptions devices_options;
  StoreCommandOptions store_options;
  ServeOptions serve_options;
  std::string shell;             // completion
  std::string manual_directory;  // manpages

  CLI::App* run = nullptr;
  CLI::App* analyze = nullptr;
  CLI::App* compare = nullptr;
  CLI::App* history = nullptr;
  CLI::App* report = nullptr;
  CLI::App* sweep = nullptr;
  CLI::App* pts = nullptr;
  ImportCommands import;
  CLI::App* capture = nullptr;
  CLI::App* replay = nullptr;
  CLI::App* verify = nullptr;
  CLI::App* cleanup = nullptr;
  CLI::App* devices = nullptr;
  StoreCommands store;
  CLI::App* serve = nullptr;
  CLI::App* completion = nullptr;
  CLI::App* manpages = nullptr;
};

Cli::Cli() : state_(std::make_unique<State>()) {
  State& s = *state_;
  CLI::App& app = s.app;
  app.add_flag("--version", s.version,
               "print the version, the build and the features compiled in");
  app.add_flag("--json", s.version_json, "with --version: as JSON");
  app.require_subcommand(0, 1);
  s.run = AddRunCommand(app, s.run_options);
  s.analyze = AddAnalyzeCommand(app, s.analyze_options);
  s.compare = AddCompareCommand(app, s.compare_options);
  s.history = AddHistoryCommand(app, s.history_options);
  s.report = AddReportCommand(app, s.report_options);
  s.sweep = AddSweepCommand(app, s.sweep_options);
  s.pts = AddPtsCommand(app, s.pts_options);
  s.import = AddImportCommand(app, s.import_options);
  s.capture = AddCaptureCommand(app, s.capture_options);
  s.replay = AddReplayCommand(app, s.replay_options);
  s.verify = AddVerifyCommand(app, s.verify_options);
  s.cleanup = AddCleanupCommand(app, s.cleanup_options);
  s.devices = AddDevicesCommand(app, s.devices_options);
  s.store = AddStoreCommands(app, s.store_options);
  s.serve = AddServeCommand(app, s.serve_options);

  s.completion = app.add_subcommand(
      "completion", "Print the bash or zsh completion script of flashmark");
  s.completion->add_option("SHELL", s.shell, "bash or zsh")->required();
  // Hidden (no group): the build writes the manual pages with it.
  s.manpages = app.add_subcommand(
      "manpages", "Write flashmark's manual pages (section 1) into DIR");
  s.manpages->group("");
  s.manpages->add_option("DIR", s.manual_directory, "an existing directory")
      ->required();
  SetFooters(app);
}

Cli::~Cli() = default;

const CLI::App& Cli::app() const { return state_->app; }

int Cli::Parse(int argc, char** argv) {
  State& s = *state_;
  if (argc <= 1) {  // nothing asked: where to start
    std::cout << StartPageText();
    return 0;
  }
  try {
    s.app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return s.app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return s.app.exit(e);
  } catch (const CLI::ParseError& e) {
    return PrintError(UsageError(
        e.what(), "see `flashmark --help` or `flashmark run --help`"));
  }
  const bool chose_command = !s.app.get_subcommands().empty();
  if (s.version && !chose_command) {
    if (s.version_json) {
      std::cout << JsonText(VersionJson(), 2) << "\n";
    } else {
      std::cout << VersionText();
    }
    return 0;
  }
  if (s.version_json) {
    return PrintError(UsageError("--json goes with --version here",
                                 "flashmark --version --json; a "
                                 "subcommand's --json goes after it"));
  }
  if (!chose_command) {
    return PrintError(
        UsageError("a subcommand is required", "see `flashmark --help`"));
  }
  return -1;
}

int Cli::Execute(const std::string& command_line) {
  State& s = *state_;
  if (s.run->parsed()) return ExecuteRunCommand(s.run_options, command_line);
  if (s.analyze->parsed()) return ExecuteAnalyze(s.analyze_options);
  if (s.sweep->parsed()) return ExecuteSweep(s.sweep_options, command_line);
  if (s.pts->parsed()) return ExecutePts(s.pts_options, command_line);
  if (s.verify->parsed()) return ExecuteVerify(s.verify_options);
  if (s.cleanup->parsed()) return ExecuteCleanup(s.cleanup_options);
  if (s.report->parsed()) return ExecuteReport(s.report_options);
  if (s.compare->parsed()) return ExecuteCompare(s.compare_options);
  if (s.history->parsed()) return ExecuteHistory(s.history_options);
  if (s.devices->parsed()) return ExecuteDevices(s.devices_options);
  if (s.import.sysbench->parsed() || s.import.fio->parsed() ||
      s.import.flashmark->parsed() || s.import.fio_iolog->parsed() ||
      s.import.blktrace->parsed()) {
    return ExecuteImport(s.import, s.import_options);
  }
  if (s.capture->parsed()) return ExecuteCapture(s.capture_options);
  if (s.replay->parsed()) {
    return ExecuteReplayCommand(s.replay_options, command_line);
  }
  if (s.store.list->parsed()) return ExecuteList(s.store_options);
  if (s.store.show->parsed()) return ExecuteShow(s.store_options);
  if (s.store.exporter->parsed()) return ExecuteExport(s.store_options);
  if (s.store.remover->parsed()) return ExecuteDelete(s.store_options);
  if (s.store.tagger->parsed()) return ExecuteTag(s.store_options);
  if (s.serve->parsed()) return ExecuteServe(s.serve_options);
  if (s.completion->parsed()) {
    auto script = CompletionScript(s.app, s.shell);
    if (!script.ok()) return PrintError(script.error());
    std::cout << *script;
    return 0;
  }
  if (s.manpages->parsed()) {
    Status written = WriteManualPages(s.app, s.manual_directory);
    return written.ok() ? 0 : PrintError(written.error());
  }
  return 0;
}

}  // namespace flashmark
