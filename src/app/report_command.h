// `flashmark report RUN... [--by TAG] [--html FILE] [--md FILE] [--csv DIR]`:
// the charts and tables of one or more runs; with no file, the key figures
// and a sparkline per run on the terminal. `--campaign ID` takes the runs
// of a sweep's finished cells instead (optionally only the cells matching
// every --where key=value), grouped by the parameter that varies (box
// plots and median vs that parameter), or one box per cell when several
// do. `--pts ID --html FILE`: the SNIA PTS report page of a `flashmark
// pts` segment (campaign/pts_report.h).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace flashmark {

struct ReportOptions {
  std::optional<std::string> db;
  std::vector<std::string> runs;
  std::optional<std::string> campaign;
  std::optional<std::string> pts;  // a `flashmark pts` segment's campaign
  std::vector<std::string> where;  // key=value, campaign cells only
  std::optional<std::string> by, html, md, csv, title;
  std::string x_axis = "auto";  // auto, linear or log2
  std::optional<std::string> warmup, metric, round, min_segment,
      gate;  // as analyze's
};

CLI::App* AddReportCommand(CLI::App& app, ReportOptions& options);
int ExecuteReport(const ReportOptions& options);

}  // namespace flashmark
