// What a block IO trace (model/block_io_trace.h) asked of its devices, in
// a few figures: IOPS and throughput over its length, the mix of
// operations and sizes, how sequential it is, the time between issues (its
// distribution: what a replay must keep), the queue depth over time
// (from issue and completion times, where the trace has them), the time
// in the block layer's queue (Q to D) and in the device (D to C), and the
// processes that issued it.
//
// Streaming: TraceSummarizer takes the IOs one by one in trace order and
// holds only what does not grow with the trace: counts per operation, size
// and process; the three time distributions as log-bucket histograms
// (model/histogram_buckets.h, the latency histograms' layout: ~140 KiB
// each) whose quantiles are exact below 1,024 ns and within 0.1 % above
// (count, mean and max stay exact); the completion times of the IOs in
// flight (a min-heap) and one queue depth per second of the trace.
// SummarizeTrace(trace) feeds it a trace in memory. Pure functions;
// a TraceSummarizer is a value used by one thread.
//
// Units: times in ns; sizes in bytes; rates per second of the trace.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "model/block_io_trace.h"

namespace flashmark {

struct TraceOpShare {
  TraceOp op = TraceOp::kRead;
  uint64_t ios = 0;
  uint64_t bytes = 0;
};

struct TraceSizeShare {
  uint32_t bytes = 0;  // an IO size
  uint64_t ios = 0;    // IOs of that size (reads, writes, discards)
};

struct TraceProcessShare {
  uint32_t pid = 0;
  std::string name;  // "" when the trace does not name it
  uint64_t ios = 0;
};

// A distribution of times: quantiles by Hyndman & Fan type 7.
struct TraceTimes {
  size_t count = 0;
  double p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0;
};
// Exact, over values in memory.
TraceTimes SummarizeTraceTimes(std::vector<double> values);

// The same figures from times given one by one, in constant memory:
// count, mean and max exact; each order statistic the type 7 quantiles
// interpolate between is its histogram bucket's midpoint (clamped to the
// exact min and max), so exact below 1,024 ns and within 0.1 % above.
class TraceTimesAccumulator {
 public:
  void Add(int64_t ns);  // a negative time counts as 0
  size_t count() const { return count_; }
  TraceTimes Result() const;

 private:
  double ValueAtRank(uint64_t rank) const;  // from 0

  std::vector<uint64_t> buckets_;  // dense; allocated at the first time
  size_t count_ = 0;
  double sum_ = 0;
  int64_t min_ = 0, max_ = 0;
};

struct TraceSummary {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  double seconds = 0;  // the trace's length
  double iops = 0;
  double mib_per_second = 0;
  std::vector<TraceOpShare> ops;      // those present, read write flush discard
  std::vector<TraceSizeShare> sizes;  // the most common first, at most 8
  // Reads and writes that start where the previous one of the same device
  // and direction ended; of all reads and writes (0..1).
  double sequential_share = 0;
  TraceTimes interarrival_ns;  // between consecutive issues, all IOs
  // Time-weighted over the trace; per second of it (mean and max). None
  // without completion times (an fio iolog).
  std::optional<double> mean_queue_depth;
  uint32_t max_queue_depth = 0;
  std::vector<double> queue_depth_per_second;
  std::optional<TraceTimes> queue_ns;        // Q to D, where both were seen
  std::optional<TraceTimes> device_ns;       // D to C, where both were seen
  std::vector<TraceProcessShare> processes;  // most IOs first, at most 8
};

class TraceSummarizer {
 public:
  // The next IO in trace order (issue_ns never decreasing).
  void Add(const TracedIo& io);
  // `header`: the trace's duration and process names (its ios ignored).
  // Once only: the summarizer is spent.
  TraceSummary Finish(const BlockIoTrace& header);

 private:
  void DepthStep(int64_t at, int change);

  TraceSummary s_;
  std::map<TraceOp, TraceOpShare> ops_;
  std::map<uint32_t, uint64_t> sizes_;
  std::map<uint32_t, uint64_t> processes_;
  std::map<std::pair<uint16_t, TraceOp>, uint64_t> next_offset_;
  uint64_t data_ios_ = 0, sequential_ = 0;
  TraceTimesAccumulator gaps_, queue_, device_;
  int64_t last_issue_ = -1;
  // Queue depth: completions of the IOs in flight (earliest on top), the
  // depth since depth_at_, the area under it per second of the trace.
  bool depth_known_ = true;  // every IO so far has a completion time
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> pending_;
  int depth_ = 0;
  int64_t depth_at_ = 0;
  int64_t last_step_ = 0;
  double depth_area_ = 0;
  std::vector<double> area_per_second_;
};

// A whole trace in memory, through a TraceSummarizer.
TraceSummary SummarizeTrace(const BlockIoTrace& trace);

}  // namespace flashmark
