// What a rank tells rank 0 about its run, one message per event, as the
// run document's own JSON (document/json_format.h): the header when the
// run starts (with the instant it started on rank 0's clock), each
// interval as it is measured, and the end (status, error, end time,
// elapsed and CPU seconds, the engine's setup as it ended, the time its
// output thread spent in MPI). Rank 0 builds
// that rank's RunResult from them exactly as the rank has it, the summary
// computed again from the intervals. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"
#include "model/run_result.h"

namespace flashmark {

// kStop goes the other way: rank 0 to a rank, --stonewall.
enum class RankMessageKind { kHeader, kInterval, kEnd, kStop };

struct RankMessage {
  RankMessageKind kind = RankMessageKind::kHeader;
  // kHeader: the run as it started (no intervals); kEnd: status, error,
  // end_unix_ns, summary.elapsed_seconds and CPU seconds, engine_setup.
  RunResult run;
  int64_t start_on_rank0_clock_ns = 0;  // kHeader
  IntervalSample sample;                // kInterval
  uint64_t mpi_ns = 0;                  // kEnd: the rank's time in MPI
};

std::string HeaderMessage(const RunResult& run,
                          int64_t start_on_rank0_clock_ns);
std::string IntervalMessage(const IntervalSample& sample);
std::string EndMessage(const RunResult& run, uint64_t mpi_ns);
std::string StopMessage();
Result<RankMessage> ParseRankMessage(const std::string& text);

// Applies an end message to the run rank 0 has been building for that
// rank from its header and intervals: the run is then complete.
void ApplyEnd(RunResult& run, const RunResult& end);

}  // namespace flashmark
