// `flashmark run TARGET... [options]`: one workload, live per-interval
// lines, a summary, optionally a JSON document.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "config/run_options.h"

namespace flashmark {

// Declares the run subcommand and its options, bound to `options`.
CLI::App* AddRunCommand(CLI::App& app, RunOptions& options);

// Executes a parsed run; returns the process exit status: 0 ok, 1 failed,
// 2 bad input, 130 interrupted (also during the file set's layout: then
// "interrupted during layout ...; no run stored", and no file is left).
int ExecuteRunCommand(const RunOptions& options,
                      const std::string& command_line);

}  // namespace flashmark
