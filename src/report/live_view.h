// What the live view shows, wherever it comes from: the runs as a report
// would draw them (ReportRun: stored run and its analysis) and where each
// run stands (running or ended, how long it ran, how long it may still
// run). A LiveSource hands out a fresh snapshot on request; the HTTP
// server (live_server.h) turns it into the report data and the metrics.
// Implementations are called from the server's threads, any number at
// once: they lock what they share.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "report/report_data.h"

namespace flashmark {

struct LiveRunState {
  bool running = false;
  double elapsed_seconds = 0;
  std::optional<double> time_limit_seconds;  // --time; none: no fixed end
  bool until_steady = false;                 // ends once steady
  // Every interval so far and the last full one, as sampled: the run the
  // snapshot holds may show them merged into blocks (LiveRunRecord).
  size_t intervals = 0;
  std::optional<IntervalSample> last_full;
  size_t block_intervals = 1;  // intervals per interval shown (1: each)

  // Where `run` stands: running while its status says so, elapsed to its
  // last interval, its --time and --until-steady, its intervals as they are.
  static LiveRunState Of(const RunResult& run);
};

// Whether the run has a full interval: something to analyse and draw.
bool HasFullInterval(const RunResult& run);

struct LiveSnapshot {
  std::vector<ReportRun> runs;       // those with a full interval so far
  std::vector<LiveRunState> states;  // one per run, same order
  std::string waiting;  // why there is nothing to show yet ("" otherwise)
};

class LiveSource {
 public:
  virtual ~LiveSource() = default;
  virtual Result<std::shared_ptr<const LiveSnapshot>> Snapshot() = 0;
};

// The report data of a snapshot, with its "live" member (state of each run,
// steady-state status and ETA, how often the page polls, intervals per
// point shown); a document with no runs and the waiting reason when
// nothing can be drawn yet. A run shown in blocks of intervals says so in
// a note.
nlohmann::json LiveReportData(const LiveSnapshot& snapshot,
                              const std::string& title, double poll_seconds);

// The snapshot as OpenMetrics text (application/openmetrics-text 1.0.0):
// per run the last full interval's (LiveRunState::last_full, as sampled)
// throughput, IOPS and latency percentiles, counters of bytes, IOs and
// errors over the run and of its intervals (LiveRunState::intervals), the
// steady-state verdict and whether it still runs; labels run (id), label
// and tag_KEY for each tag.
std::string LiveMetrics(const LiveSnapshot& snapshot);

}  // namespace flashmark
