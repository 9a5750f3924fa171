// The live view (report/live_server.h) from the command line:
//   flashmark run ... --serve [ADDR:PORT] [--serve-token T]
//     serves the run in progress in this process while it goes on;
//   flashmark serve [RUN...] [--db FILE] [--listen ADDR:PORT] [--serve-token T]
//     serves stored runs (the newest one by default, which follows a run
//     another process is recording), read again from the store at every
//     request, until SIGINT or SIGTERM.
// The page and /metrics analyse a run by the rule every command uses
// (AnalyzeForLiveView), with its latency heatmap.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "common/result.h"
#include "report/live_server.h"

namespace flashmark {

struct ServeOptions {
  std::optional<std::string> db;
  std::vector<std::string> runs;
  std::string listen;  // ADDR:PORT; "" the default (127.0.0.1, any port)
  std::string token;
};

CLI::App* AddServeCommand(CLI::App& app, ServeOptions& options);
int ExecuteServe(const ServeOptions& options);

// The analysis the live view draws: the run's headline rule, default
// options, its latency heatmap.
Result<RunAnalysis> AnalyzeForLiveView(const RunResult& run);

// --serve / --listen and --serve-token as the server's options; a usage
// error for a bad address or a non-loopback one without a token.
// `option` names the address's option in errors ("--serve", "--listen").
Result<LiveServerOptions> BuildLiveServerOptions(const std::string& option,
                                                 const std::string& address,
                                                 const std::string& token,
                                                 double poll_seconds);

}  // namespace flashmark
