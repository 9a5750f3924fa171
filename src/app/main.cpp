// flashmark: main reads as a pipeline: block interrupt signals (runs take
// SIGINT, SIGTERM and SIGHUP as a request to stop cleanly), ignore SIGPIPE
// (a closed stdout silences the output, never ends a measurement), parse
// the command line (app/cli), run the one subcommand it chose, return its
// exit status.
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
  return cli.Execute(
      flashmark::ShellJoin(std::vector<std::string>(argv, argv + argc)));
}
