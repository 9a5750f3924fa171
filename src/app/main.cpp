// flashmark: main reads as a pipeline: block interrupt signals (runs take
// SIGINT, SIGTERM and SIGHUP as a request to stop cleanly), ignore SIGPIPE
// (a closed stdout silences the output, never ends a measurement), parse
// the command line (app/cli), run the one subcommand it chose, return its
// exit status. The command line it records leaves secrets out (the value
// of --serve-token reads "REDACTED").
#include <string>
#include <vector>

#include "app/cli.h"
#include "common/shell_quote.h"
#include "common/signals.h"

int main(int argc, char** argv) {
  flashmark::BlockInterruptSignals();
  flashmark::IgnoreBrokenPipe();

  flashmark::Cli cli;
  if (const int done = cli.Parse(argc, argv); done >= 0) return done;
  std::vector<std::string> args(argv, argv + argc);
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k] == "--serve-token" && k + 1 < args.size()) {
      args[++k] = "REDACTED";
    } else if (args[k].rfind("--serve-token=", 0) == 0) {
      args[k] = "--serve-token=REDACTED";
    }
  }
  return cli.Execute(flashmark::ShellJoin(args));
}
