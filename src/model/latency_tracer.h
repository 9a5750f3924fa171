// LatencyTracer: where --trace-latency's LatencySplit comes from; system/
// block_latency_tracer.h joins the block layer's tracepoints with the IOs
// the workers log. The runner gives every worker an IoLog and the tracer
// all of them. Threading: Begin() on the runner's thread before the
// workers start; Take() on the sampler thread right after each snapshot
// (the split of the IOs logged since the previous Take); End() once every
// worker finished, before the last Take() of the run's tail.
#pragma once

#include <span>

#include "common/cycle_clock.h"
#include "model/io_log.h"
#include "model/latency_split.h"

namespace flashmark {

class LatencyTracer {
 public:
  virtual ~LatencyTracer() = default;
  // `clock` stamped the logged IOs.
  virtual void Begin(std::span<IoLog* const> logs, const CycleClock& clock) = 0;
  virtual LatencySplit Take() = 0;
  virtual void End() = 0;
};

}  // namespace flashmark
