// IntervalSample: what happened during one sampling interval, summed over
// all workers: bytes and IOs per direction, fsyncs, errors, blocks checked
// and found bad by --verify, and the latency histogram deltas. Times are nanoseconds since the run started. A plain
// value type; it can equally be built from another process's counters.
#pragma once

#include <cstdint>

#include "metrics/latency_histogram.h"
#include "metrics/verify_result.h"

namespace flashmark {

struct DirectionTotals {
  uint64_t ios = 0;
  uint64_t bytes = 0;
};

struct IntervalSample {
  uint32_t index = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  bool partial = false;  // shorter than the configured interval (run end)
  DirectionTotals read;
  DirectionTotals write;
  uint64_t fsyncs = 0;
  uint64_t errors = 0;
  VerifyCounts verify;  // --verify: blocks checked on reads, bad ones
  LatencyHistogram read_latency;   // service time, submission to completion
  LatencyHistogram write_latency;
  LatencyHistogram schedule_latency;  // from intended start (with --rate)

  double seconds() const { return (end_ns - start_ns) / 1e9; }
  double ReadMiBs() const { return read.bytes / 1048576.0 / seconds(); }
  double WriteMiBs() const { return write.bytes / 1048576.0 / seconds(); }
  double Iops() const { return (read.ios + write.ios) / seconds(); }
};

}  // namespace flashmark
