// `flashmark analyze RUN [--warmup 1800s|auto] [--metric ...]`: steady
// state, the median with its confidence interval, spread and regimes.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace flashmark {

struct AnalyzeOptions {
  std::optional<std::string> db;
  std::string run;
  std::optional<std::string> warmup, metric, round, min_segment, gate;
  bool json = false;
};

CLI::App* AddAnalyzeCommand(CLI::App& app, AnalyzeOptions& options);
int ExecuteAnalyze(const AnalyzeOptions& options);

}  // namespace flashmark
