// flashmark: main reads as a pipeline: block interrupt signals (runs take
// SIGINT, SIGTERM and SIGHUP as a request to stop cleanly), ignore SIGPIPE
// (a closed stdout silences the output, never ends a measurement), parse
// the command line, dispatch to one subcommand, return its exit status.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/analyze_command.h"
#include "app/cleanup_command.h"
#include "app/compare_command.h"
#include "app/devices_command.h"
#include "app/import_command.h"
#include "app/print_error.h"
#include "app/report_command.h"
#include "app/run_command.h"
#include "app/store_commands.h"
#include "app/sweep_command.h"
#include "app/verify_command.h"
#include "common/shell_quote.h"
#include "common/signals.h"
#include "common/version.h"

int main(int argc, char** argv) {
  flashmark::BlockInterruptSignals();
  flashmark::IgnoreBrokenPipe();

  CLI::App app{
      "flashmark: storage benchmarks for flash devices, with the "
      "method built in"};
  app.set_version_flag("--version", std::string("flashmark ") +
                                        flashmark::kToolVersion + " (" +
                                        flashmark::kGitRevision + ")");
  app.require_subcommand(1);
  flashmark::RunOptions run_options;
  CLI::App* run = flashmark::AddRunCommand(app, run_options);
  flashmark::AnalyzeOptions analyze_options;
  CLI::App* analyze = flashmark::AddAnalyzeCommand(app, analyze_options);
  flashmark::CompareOptions compare_options;
  CLI::App* compare = flashmark::AddCompareCommand(app, compare_options);
  flashmark::ReportOptions report_options;
  CLI::App* report = flashmark::AddReportCommand(app, report_options);
  flashmark::SweepOptions sweep_options;
  CLI::App* sweep = flashmark::AddSweepCommand(app, sweep_options);
  flashmark::ImportOptions import_options;
  const flashmark::ImportCommands import =
      flashmark::AddImportCommand(app, import_options);
  flashmark::VerifyOptions verify_options;
  CLI::App* verify = flashmark::AddVerifyCommand(app, verify_options);
  flashmark::CleanupOptions cleanup_options;
  CLI::App* cleanup = flashmark::AddCleanupCommand(app, cleanup_options);
  flashmark::DevicesOptions devices_options;
  CLI::App* devices = flashmark::AddDevicesCommand(app, devices_options);
  flashmark::StoreCommandOptions store_options;
  const flashmark::StoreCommands store =
      flashmark::AddStoreCommands(app, store_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return flashmark::PrintError(flashmark::UsageError(
        e.what(), "see `flashmark --help` or `flashmark run --help`"));
  }
  const std::string command_line =
      flashmark::ShellJoin(std::vector<std::string>(argv, argv + argc));
  if (run->parsed())
    return flashmark::ExecuteRunCommand(run_options, command_line);
  if (analyze->parsed()) return flashmark::ExecuteAnalyze(analyze_options);
  if (sweep->parsed())
    return flashmark::ExecuteSweep(sweep_options, command_line);
  if (verify->parsed()) return flashmark::ExecuteVerify(verify_options);
  if (cleanup->parsed()) return flashmark::ExecuteCleanup(cleanup_options);
  if (report->parsed()) return flashmark::ExecuteReport(report_options);
  if (compare->parsed()) return flashmark::ExecuteCompare(compare_options);
  if (devices->parsed()) return flashmark::ExecuteDevices(devices_options);
  if (import.sysbench->parsed() || import.fio->parsed()) {
    return flashmark::ExecuteImport(import, import_options);
  }
  if (store.list->parsed()) return flashmark::ExecuteList(store_options);
  if (store.show->parsed()) return flashmark::ExecuteShow(store_options);
  if (store.exporter->parsed()) return flashmark::ExecuteExport(store_options);
  if (store.remover->parsed()) return flashmark::ExecuteDelete(store_options);
  return 0;
}
