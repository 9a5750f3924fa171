#include "analysis/replay_fidelity.h"

#include <algorithm>
#include <functional>
#include <queue>

#include "analysis/quantiles.h"

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
                                     double mean_interarrival_ns) {
  ReplayFidelity f;
  f.ios = ios.size();
  f.late_threshold_ns = ReplayLateThresholdNs(mean_interarrival_ns);
  if (ios.empty()) return f;
  std::vector<double> errors;
  double achieved_sum = 0, recorded_sum = 0;
  bool recorded_known = true;
  int64_t latest = ios.front().issued_ns;
  for (const ReplayIoRecord& io : ios) {
    if (io.intended_ns >= 0) {
      errors.push_back(static_cast<double>(io.issued_ns - io.intended_ns));
    }
    if (io.issued_ns < latest) ++f.reordered;
    latest = std::max(latest, io.issued_ns);
    achieved_sum += io.achieved_depth;
    f.achieved_depth_max = std::max(f.achieved_depth_max, io.achieved_depth);
    if (io.recorded_depth == 0) recorded_known = false;
    recorded_sum += io.recorded_depth;
    f.recorded_depth_max = std::max(f.recorded_depth_max, io.recorded_depth);
  }
  f.achieved_depth_mean = achieved_sum / static_cast<double>(ios.size());
  if (recorded_known) {
    f.recorded_depth_mean = recorded_sum / static_cast<double>(ios.size());
  } else {
    f.recorded_depth_max = 0;
  }
  std::vector<double> gaps;
  gaps.reserve(ios.size());
  for (size_t i = 1; i < ios.size(); ++i) {
    gaps.push_back(
        static_cast<double>(ios[i].issued_ns - ios[i - 1].issued_ns));
  }
  if (!gaps.empty()) {
    std::sort(gaps.begin(), gaps.end());
    f.interarrival_p50_ns = QuantileOfSorted(gaps, 0.5);
    f.interarrival_p99_ns = QuantileOfSorted(gaps, 0.99);
  }
  f.timed = !errors.empty();
  if (f.timed) {
    std::sort(errors.begin(), errors.end());
    f.error_p50_ns = QuantileOfSorted(errors, 0.5);
    f.error_p99_ns = QuantileOfSorted(errors, 0.99);
    f.error_max_ns = errors.back();
    double sum = 0;
    for (double e : errors) sum += e;
    f.error_mean_ns = sum / static_cast<double>(errors.size());
    f.kept_timing = f.error_p99_ns <= f.late_threshold_ns;
  }
  return f;
}

}  // namespace flashmark
