// `flashmark compare RUN RUN... [--by TAG]`: throughput, IOPS and p99 of
// runs (or tag groups) against the first, as ratios with confidence
// intervals, and cost figures when runs carry a price tag.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace flashmark {

struct CompareOptions {
  std::optional<std::string> db;
  std::vector<std::string> runs;
  std::optional<std::string> by, warmup;
  std::vector<std::string> prices;  // --price NAME=AMOUNT
  bool json = false;
};

CLI::App* AddCompareCommand(CLI::App& app, CompareOptions& options);
int ExecuteCompare(const CompareOptions& options);

}  // namespace flashmark
