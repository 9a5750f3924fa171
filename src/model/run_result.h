// RunResult: the one result model of a run: its spec, command line,
// environment, every interval and the summary. Data only; reporters and
// the store serialise it. Times: unix nanoseconds for wall-clock instants,
// seconds for durations, nanoseconds for latencies.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/environment.h"
#include "model/interval_sample.h"
#include "model/job_spec.h"
#include "model/replay_outcome.h"
#include "model/tool_report.h"
#include "model/verify_result.h"

namespace flashmark {

enum class RunStatus { kRunning, kOk, kFailed, kInterrupted };
std::string RunStatusName(RunStatus status);  // "ok", "failed", ...

// Distribution of one per-interval series (e.g. write MiB/s).
struct SeriesSummary {
  size_t count = 0;
  double median = 0, p25 = 0, p75 = 0, p5 = 0, p95 = 0;
  double min = 0, max = 0, mean = 0;
};

// Latency figures in nanoseconds from a merged histogram.
struct LatencySummary {
  uint64_t count = 0;
  double mean = 0, min = 0, max = 0;
  double p50 = 0, p90 = 0, p95 = 0, p99 = 0, p999 = 0, p9999 = 0;
};

// --trace-latency over the run: the four parts (model/latency_split.h).
struct LatencySplitSummary {
  LatencySummary flashmark, queue, device, completion;
  // The mean parts of the IOs at the latency's p50 and p99 (ns, in the
  // order above; SplitByLatency): they add up to it. NaN each for a run
  // stored before they were kept.
  std::array<double, 4> at_p50 = NoParts(), at_p99 = NoParts();
  uint64_t untraced = 0;
  static std::array<double, 4> NoParts() {
    return {std::nan(""), std::nan(""), std::nan(""), std::nan("")};
  }
  uint64_t traced() const { return device.count; }
};

struct RunSummary {
  double elapsed_seconds = 0;
  DirectionTotals read;
  DirectionTotals write;
  uint64_t fsyncs = 0;
  uint64_t errors = 0;
  VerifyCounts verify;        // --verify, summed over the intervals
  size_t intervals_used = 0;  // full intervals behind the series figures
  SeriesSummary read_mibs;
  SeriesSummary write_mibs;
  SeriesSummary iops;
  LatencySummary read_latency;
  LatencySummary write_latency;
  LatencySummary latency;             // reads and writes together
  LatencySummary schedule_latency;    // from intended start; --rate only
  LatencySummary commit_latency;      // per commit; --profile only
  LatencySplitSummary latency_split;  // --trace-latency only
  double cpu_user_seconds = 0;
  double cpu_system_seconds = 0;
};

struct RunError {
  std::string message;  // "EIO writing /mnt/x/flashmark.3 at offset 4096"
  std::string path;
  uint64_t offset = 0;
  int error_number = 0;
};

struct RunResult {
  JobSpec spec;
  std::string command_line;
  Environment environment;
  int64_t start_unix_ns = 0;
  int64_t end_unix_ns = 0;
  std::vector<IntervalSample> intervals;
  RunSummary summary;
  RunStatus status = RunStatus::kRunning;
  std::optional<RunError> error;
  VerifyOutcome verify;  // --verify: the read-back and the first mismatches
  std::string tool_version;
  std::string git_revision;
  ToolReport imported;  // what fio or sysbench printed (imported runs only)
  // `flashmark replay`: the trace, its timing and the fidelity.
  std::optional<ReplayOutcome> replay;
  // Seconds outside the measured time, this process only (not stored):
  // laying out the targets, making the workers (engines, IO buffers,
  // threads) and ending them.
  struct Overhead {
    double layout = 0;
    double setup = 0;
    double teardown = 0;
  } overhead;
};

}  // namespace flashmark
