// Worked examples of each subcommand (the README's), kept in one table:
// they end each command's --help (set by the Cli) and fill the EXAMPLES
// section of its manual page (app/manual_pages). Pure; static storage.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace flashmark {

struct CommandExample {
  std::string_view what;     // one sentence: what it does
  std::string_view command;  // the command line, starting "flashmark"
};

// By command path: "" (flashmark itself), "run", "import sysbench"...; an
// empty span when a command has none.
std::span<const CommandExample> CommandExamples(std::string_view path);

// The --help footer: "Examples:" then, per example, its sentence and the
// command indented below it. "" when there are none.
std::string ExamplesFooter(std::span<const CommandExample> examples);

}  // namespace flashmark
