// flashmark: main reads as a pipeline: block interrupt signals (runs take
// them as a request to stop cleanly), parse the command line, dispatch to
// one subcommand, return its exit status.
#include <CLI/CLI.hpp>

#include <string>

#include "app/print_error.h"
#include "app/run_command.h"
#include "common/version.h"
#include "system/signals.h"

namespace {

// The command line as one string a shell would run again.
std::string QuoteCommandLine(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    const bool plain =
        !arg.empty() &&
        arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                              "0123456789-_./=:,%+@") == std::string::npos;
    if (!plain) {
      std::string quoted = "'";
      for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      arg = quoted + "'";
    }
    line += (i ? " " : "") + arg;
  }
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  flashmark::BlockInterruptSignals();

  CLI::App app{"flashmark: storage benchmarks for flash devices, with the "
               "method built in"};
  app.set_version_flag("--version", std::string("flashmark ") +
                                        flashmark::kToolVersion + " (" +
                                        flashmark::kGitRevision + ")");
  app.require_subcommand(1);
  flashmark::RunOptions run_options;
  CLI::App* run = flashmark::AddRunCommand(app, run_options);

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
  const std::string command_line = QuoteCommandLine(argc, argv);
  if (run->parsed()) return flashmark::ExecuteRunCommand(run_options, command_line);
  return 0;
}
