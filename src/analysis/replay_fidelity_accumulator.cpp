#include "analysis/replay_fidelity_accumulator.h"

#include <algorithm>

#include "analysis/replay_fidelity.h"

namespace flashmark {
namespace {

ReplayIntervalFidelity FidelityOfInterval(const LatencyHistogram& errors,
                                          int64_t error_max, uint64_t ios,
                                          uint64_t depth_sum) {
  ReplayIntervalFidelity point;
  point.ios = ios;
  if (ios == 0) return point;
  point.achieved_depth_mean =
      static_cast<double>(depth_sum) / static_cast<double>(ios);
  if (!errors.empty()) {
    point.error_p50_ns = errors.Quantile(0.5);
    point.error_p99_ns = errors.Quantile(0.99);
    point.error_max_ns = static_cast<double>(error_max);
  }
  return point;
}

}  // namespace

ReplayFidelityAccumulator::ReplayFidelityAccumulator(
    double mean_interarrival_ns, uint64_t interval_ns)
    : late_threshold_ns_(ReplayLateThresholdNs(mean_interarrival_ns)),
      interval_ns_(interval_ns) {}

void ReplayFidelityAccumulator::CloseInterval() {
  if (interval_ns_ > 0) {
    series_.push_back(FidelityOfInterval(interval_errors_, interval_error_max_,
                                         interval_ios_, interval_depth_sum_));
  }
  errors_.Merge(interval_errors_);
  interval_errors_ = LatencyHistogram();
  interval_error_max_ = INT64_MIN;
  interval_ios_ = 0;
  interval_depth_sum_ = 0;
  ++interval_index_;
}

void ReplayFidelityAccumulator::Add(const ReplayIoRecord& io) {
  if (interval_ns_ > 0 && io.issued_ns > 0) {
    const uint64_t index = static_cast<uint64_t>(io.issued_ns) / interval_ns_;
    while (interval_index_ < index) CloseInterval();
  }
  if (ios_ == 0) {
    latest_issued_ = io.issued_ns;
  } else {
    gaps_.Add(static_cast<uint64_t>(
        std::max<int64_t>(0, io.issued_ns - previous_issued_)));
  }
  ++ios_;
  previous_issued_ = io.issued_ns;
  if (io.issued_ns < latest_issued_) ++reordered_;
  latest_issued_ = std::max(latest_issued_, io.issued_ns);
  achieved_sum_ += io.achieved_depth;
  achieved_max_ = std::max(achieved_max_, io.achieved_depth);
  if (io.recorded_depth == 0) recorded_known_ = false;
  recorded_sum_ += io.recorded_depth;
  recorded_max_ = std::max(recorded_max_, io.recorded_depth);
  ++interval_ios_;
  interval_depth_sum_ += io.achieved_depth;
  if (io.intended_ns >= 0) {
    const int64_t error = io.issued_ns - io.intended_ns;
    ++timed_ios_;
    error_sum_ += error;
    error_max_ = std::max(error_max_, error);
    interval_error_max_ = std::max(interval_error_max_, error);
    if (error < 0) ++early_;
    interval_errors_.Add(static_cast<uint64_t>(std::max<int64_t>(0, error)));
  }
}

ReplayFidelity ReplayFidelityAccumulator::Result() const {
  ReplayFidelity f;
  f.ios = ios_;
  f.late_threshold_ns = late_threshold_ns_;
  f.series_interval_ns = interval_ns_;
  f.series = series_;
  if (ios_ == 0) return f;
  if (interval_ns_ > 0) {
    f.series.push_back(FidelityOfInterval(interval_errors_, interval_error_max_,
                                          interval_ios_, interval_depth_sum_));
  }
  f.reordered = reordered_;
  f.achieved_depth_mean =
      static_cast<double>(achieved_sum_) / static_cast<double>(ios_);
  f.achieved_depth_max = achieved_max_;
  if (recorded_known_) {
    f.recorded_depth_mean =
        static_cast<double>(recorded_sum_) / static_cast<double>(ios_);
    f.recorded_depth_max = recorded_max_;
  }
  if (!gaps_.empty()) {
    f.interarrival_p50_ns = gaps_.Quantile(0.5);
    f.interarrival_p99_ns = gaps_.Quantile(0.99);
  }
  f.timed = timed_ios_ > 0;
  if (f.timed) {
    LatencyHistogram errors = errors_;
    errors.Merge(interval_errors_);
    f.error_p50_ns = errors.Quantile(0.5);
    f.error_p99_ns = errors.Quantile(0.99);
    f.error_max_ns = static_cast<double>(error_max_);
    f.error_mean_ns =
        static_cast<double>(error_sum_) / static_cast<double>(timed_ios_);
    f.early = early_;
    f.kept_timing = f.error_p99_ns <= f.late_threshold_ns;
  }
  return f;
}

}  // namespace flashmark
