// Shell completion scripts (bash, zsh) for `flashmark completion SHELL`
// and the installed files, made from the CLI::App the program parses
// with (app/cli): subcommands, every option and alias, the values of
// options that take a fixed set (modes, engines, data patterns, metrics,
// formats), files and block devices for targets, directories where a
// directory is asked for, and run ids (read with `flashmark list --ids`
// from the --db on the command line, else the default database) for the
// commands that take runs. Pure; single-threaded.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace flashmark {

// What a value (of an option or a positional argument) completes to: a
// fixed list of words, or one of "@file", "@dir", "@device", "@runs",
// "@campaigns"; "" when it is free text.
struct ValueCompletion {
  std::string_view name;  // "--engine", or a positional's name "RUN"
  std::vector<std::string> words;
};
std::vector<ValueCompletion> ValueCompletions();

std::string BashCompletion(const CLI::App& top);
std::string ZshCompletion(const CLI::App& top);
// "bash" or "zsh"; anything else is a usage error.
Result<std::string> CompletionScript(const CLI::App& top,
                                     std::string_view shell);

}  // namespace flashmark
