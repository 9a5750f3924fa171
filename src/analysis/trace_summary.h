// What a block IO trace (model/block_io_trace.h) asked of its devices, in
// a few figures: IOPS and throughput over its length, the mix of
// operations and sizes, how sequential it is, the time between issues (its
// distribution: what a replay must keep), the queue depth over time
// (from issue and completion times, where the trace has them), the time
// in the block layer's queue (Q to D) and in the device (D to C), and the
// processes that issued it. Pure; thread-safe.
//
// Units: times in ns; sizes in bytes; rates per second of the trace.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
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
TraceTimes SummarizeTraceTimes(std::vector<double> values);

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

TraceSummary SummarizeTrace(const BlockIoTrace& trace);

}  // namespace flashmark
