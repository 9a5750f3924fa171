// The whole command line of flashmark: every subcommand, its options and
// where their values land, in one object. main parses with it and runs
// the chosen subcommand; `flashmark completion` and the man pages
// (app/manual_pages, app/shell_completion) walk the same CLI::App, so
// help, manual and completion cannot drift apart. Not copyable (the
// CLI11 callbacks point into it); single-threaded.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

namespace flashmark {

class Cli {
 public:
  Cli();
  ~Cli();
  Cli(const Cli&) = delete;
  Cli& operator=(const Cli&) = delete;

  const CLI::App& app() const;
  // Parses argv. Returns an exit status when the command line is done
  // with (help, version, a usage error: printed), or -1 when Execute
  // should run the chosen subcommand.
  int Parse(int argc, char** argv);
  // Runs the parsed subcommand; `command_line` is argv, shell-quoted.
  int Execute(const std::string& command_line);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace flashmark
