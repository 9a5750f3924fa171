// LiveRunRecord: a run's intervals as the live view keeps them, in memory
// that does not grow with the run. Up to max_blocks intervals are kept
// whole (each its own block): the live view then shows exactly what a
// report of the run so far would. Beyond that, consecutive intervals are
// merged into blocks of 2, 4, 8... intervals (counters summed, histograms
// merged, telemetry deltas summed: model/interval_merge.h, exact), the
// block length doubling (adjacent blocks merged in pairs) whenever there
// would be more than max_blocks of them. A week of 1 s intervals is then
// about 600 blocks of 1024 s, and the analysis of the live view runs on
// them as on intervals of that length (View: the spec's interval scaled by
// the block length): its figures are those of the run at that resolution,
// while the stored run and its report keep every interval. A partial
// interval (the run's drain) is never merged with a full one.
// Exact whatever the run's length: the interval count, and the last full
// interval (the throughput, IOPS and latency /metrics shows). Totals over
// the blocks equal those over the intervals.
// A plain value type, not thread-safe (LiveRecorder guards it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/interval_sample.h"
#include "model/run_result.h"

namespace flashmark {

// Blocks the live view keeps at most: its page draws at most 2 x 1000
// points a series (ReportInput::max_points), so little more resolution
// would show; the memory is this many merged intervals (their histograms
// at most the layout's buckets each, far fewer in practice: a week's
// synthetic run with ~200 buckets an interval keeps ~25 MiB).
inline constexpr size_t kLiveMaxBlocks = 1024;

class LiveRunRecord {
 public:
  explicit LiveRunRecord(size_t max_blocks = kLiveMaxBlocks);

  void Add(const IntervalSample& sample);

  size_t intervals() const { return intervals_; }              // samples added
  size_t block_intervals() const { return block_intervals_; }  // 1: whole
  const std::vector<IntervalSample>& blocks() const { return blocks_; }
  // The last full (not partial) interval, as it was added.
  const std::optional<IntervalSample>& last_full() const { return last_full_; }

  // `header` (spec, environment, status, summary...: its intervals are not
  // read) with the blocks as its intervals; when they are longer than one
  // interval, spec.interval is the block's length.
  RunResult View(const RunResult& header) const;

  // Brings `copy`, the blocks as an earlier call left them (empty at
  // first), up to date with them, copying only what changed since: the
  // last block it had and the newer ones, unless the blocks were merged
  // since (`generation` says when it was made; updated here).
  void CopyBlocks(std::vector<IntervalSample>& copy,
                  uint64_t& generation) const;

 private:
  void Coarsen();  // blocks twice as long, adjacent ones merged

  size_t max_blocks_;
  size_t intervals_ = 0;
  size_t block_intervals_ = 1;
  std::vector<IntervalSample> blocks_;
  std::vector<uint32_t> counts_;  // intervals in each block
  uint64_t generation_ = 1;       // changed by each Coarsen
  std::optional<IntervalSample> last_full_;
};

// `run` without its intervals (copies everything else).
RunResult RunHeader(const RunResult& run);

}  // namespace flashmark
