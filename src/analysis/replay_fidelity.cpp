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
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> pending;
  for (const TracedIo& io : trace.ios) {
    while (!pending.empty() && pending.top() <= io.issue_ns) pending.pop();
    depths.push_back(static_cast<uint32_t>(pending.size() + 1));
    if (io.complete_ns > io.issue_ns) pending.push(io.complete_ns);
  }
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
