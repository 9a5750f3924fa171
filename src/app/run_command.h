// `flashmark run TARGET... [options]`: one workload, live per-interval
// lines, a summary, optionally a JSON document.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "config/run_options.h"

namespace flashmark {

// Declares the run subcommand and its options, bound to `options`.
CLI::App* AddRunCommand(CLI::App& app, RunOptions& options);

// Executes a parsed run; returns the process exit status.
int ExecuteRunCommand(const RunOptions& options, const std::string& command_line);

}  // namespace flashmark
