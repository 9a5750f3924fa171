#include "analysis/replay_fidelity.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace flashmark {

std::vector<uint32_t> RecordedQueueDepths(const BlockIoTrace& trace) {
  const bool any_completion =
      std::any_of(trace.ios.begin(), trace.ios.end(),
                  [](const TracedIo& io) { return io.complete_ns >= 0; });
  if (!any_completion) return {};
  std::vector<uint32_t> depths;
  depths.reserve(trace.ios.size());
  RecordedDepthCounter counter;
  for (const TracedIo& io : trace.ios) depths.push_back(counter.Next(io));
  return depths;
}

double ReplayLateThresholdNs(double mean_interarrival_ns) {
  constexpr double kOneMs = 1e6;
  if (mean_interarrival_ns <= 0) return kOneMs;
  return std::min(kOneMs, 2 * mean_interarrival_ns);
}

ReplayFidelity ComputeReplayFidelity(std::span<const ReplayIoRecord> ios,
                                     double mean_interarrival_ns,
                                     uint64_t interval_ns) {
  ReplayFidelityAccumulator accumulator(mean_interarrival_ns, interval_ns);
  for (const ReplayIoRecord& io : ios) accumulator.Add(io);
  return accumulator.Result();
}

}  // namespace flashmark
