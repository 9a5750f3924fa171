// `flashmark replay TRACE TARGET... [--timing original|scaled:X|afap]
// [--map linear|modulo|wrap] [--allow-destroy DEV]...`: a stored block IO
// trace (`flashmark list --traces`) replayed onto files or block devices
// and recorded as a run with its fidelity (campaign/replay_run.h). Bad
// input (an unknown trace, a missing or refused target, a target smaller
// than the trace without --map, bad --timing/--map) exits 2 with nothing
// stored or written.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace flashmark {

struct ReplayOptions {
  std::string trace;
  std::vector<std::string> targets;
  std::string timing = "original";
  std::string map = "none";
  std::vector<std::string> allow_destroy;
  std::string engine;
  int iodepth = 0;
  bool buffered = false;
  bool quiet = false;
  std::optional<std::string> json;
  std::optional<std::string> db;
  bool no_db = false;
  std::string label;
};

CLI::App* AddReplayCommand(CLI::App& app, ReplayOptions& options);
int ExecuteReplayCommand(const ReplayOptions& options,
                         const std::string& command_line);

}  // namespace flashmark
