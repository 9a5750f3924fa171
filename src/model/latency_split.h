// LatencySplit: where the time of an interval's IOs went (--trace-latency),
// each IO's measured latency cut in four at the block layer's tracepoints:
// - flashmark: from flashmark's submission stamp to the bio entering the
//   block layer (block_bio_queue): the engine, the system call, the file
//   system;
// - queue: in the block layer, bio queued to request issued to the driver
//   (block_rq_issue; blktrace's Q2D);
// - device: issued to completed (block_rq_complete; blktrace's D2C);
// - completion: completed to flashmark's reap (the interrupt, the wake-up,
//   the reaping system call).
// For every traced IO the four parts add up to its measured latency
// exactly; `by_latency` keeps their sums by the IOs' latency, so that a
// percentile's split adds up too. `untraced` counts the IOs whose block
// requests were not found (events the trace buffer dropped, an IO across two
// file extents). A plain value type; nanoseconds.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "model/latency_histogram.h"
#include "model/split_by_latency.h"

namespace flashmark {

// The parts' names, in the order of LatencySplit::Parts().
inline constexpr std::array<const char*, 4> kSplitPartNames = {
    "flashmark", "queue", "device", "completion"};

struct LatencySplit {
  LatencyHistogram flashmark;
  LatencyHistogram queue;
  LatencyHistogram device;
  LatencyHistogram completion;
  SplitByLatency by_latency;  // empty in runs stored before it was kept
  uint64_t untraced = 0;

  uint64_t traced() const { return device.count(); }
  bool empty() const { return traced() == 0 && untraced == 0; }
  // The four parts in order: flashmark, queue, device, completion.
  std::array<const LatencyHistogram*, 4> Parts() const {
    return {&flashmark, &queue, &device, &completion};
  }
  void Merge(const LatencySplit& other) {
    flashmark.Merge(other.flashmark);
    queue.Merge(other.queue);
    device.Merge(other.device);
    completion.Merge(other.completion);
    by_latency.Merge(other.by_latency);
    untraced += other.untraced;
  }
};

// Each part at its p50 (ns), NaN for a part that holds no IO.
inline std::array<double, 4> PartMediansNs(
    const std::array<const LatencyHistogram*, 4>& parts) {
  std::array<double, 4> medians{};
  for (size_t k = 0; k < 4; ++k) {
    medians[k] = parts[k]->empty() ? std::nan("") : parts[k]->Quantile(0.5);
  }
  return medians;
}

// The four parts of the p50 (ns): the mean parts of the IOs at the
// latency's p50 (SplitByLatency), which add up to it; for a run stored
// before those were kept, each part's own p50. NaN each when none.
inline std::array<double, 4> SplitAtMedianNs(
    const std::array<const LatencyHistogram*, 4>& parts,
    const SplitByLatency& by_latency) {
  if (!by_latency.empty()) return by_latency.PartsAt(0.5);
  return PartMediansNs(parts);
}
inline std::array<double, 4> SplitAtMedianNs(const LatencySplit& split) {
  return SplitAtMedianNs(split.Parts(), split.by_latency);
}

}  // namespace flashmark
