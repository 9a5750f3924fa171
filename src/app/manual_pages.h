// Manual pages (roff, man(7) macros, section 1) of flashmark and of each of
// its visible subcommands, made from the CLI::App the program parses
// with (app/cli): name and description, synopsis, arguments, every option
// with its aliases, value and help, the examples (app/command_examples),
// environment, exit status and see-also. A hidden subcommand (group "")
// gets none. Pure apart from WriteManualPages; single-threaded.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "common/result.h"

namespace flashmark {

// "flashmark", "flashmark-run", "flashmark-import-fio".
std::string ManualPageName(const CLI::App& command);
std::string ManualPage(const CLI::App& command);
// Every visible command below and including `top`, in help order.
std::vector<const CLI::App*> ManualPageCommands(const CLI::App& top);
// Writes NAME.1 for each of ManualPageCommands(top) into `directory`
// (which must exist), each atomically.
Status WriteManualPages(const CLI::App& top, const std::string& directory);

}  // namespace flashmark
