// Walking the CLI11 tree the program parses with (app/cli), for what is
// made from it (manual pages, completion scripts, --help footers): the
// visible subcommands (a hidden one has no group), named options and
// positional arguments, as --help shows them. Pure; borrows the tree.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace flashmark {

std::vector<const CLI::App*> VisibleSubcommands(const CLI::App& command);
std::vector<const CLI::Option*> NamedOptions(const CLI::App& command);
std::vector<const CLI::Option*> Positionals(const CLI::App& command);
// "-q", "--quiet": every name, dashes included.
std::vector<std::string> OptionNames(const CLI::Option& option);
// A flag takes none (it has no type name); a vector may be repeated.
bool TakesValue(const CLI::Option& option);
// What its value is called: the first long name, else its own name (a
// positional's "RUN"), in capitals ("TIME") or in small letters ("run").
std::string ValueName(const CLI::Option& option, bool capitals);
bool Repeatable(const CLI::Option& option);
// "flashmark import fio" (the words, from the top) and its path below the
// top: "import fio"; "" for flashmark itself.
std::string CommandWords(const CLI::App& command);
std::string CommandPath(const CLI::App& command);

}  // namespace flashmark
