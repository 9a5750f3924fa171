// ReplayFidelityAccumulator: the fidelity of a replay (model/
// replay_outcome.h, definitions in analysis/replay_fidelity.h) computed
// as the replayer goes, IO by IO in the trace's order, in memory that
// does not grow with the trace: the issue errors and the inter-arrival
// times go into log-bucket histograms (model/latency_histogram.h: a
// quantile is a bucket's midpoint, within 0.1 % of the exact value, by
// nearest rank), the counts, sums and maxima are exact. Per interval of
// `interval_ns` it keeps the error's p50, p99 and max and the achieved
// depth's mean (ReplayFidelity::series): 40 bytes per interval, a few
// hundred bytes of histogram per interval while it is the current one.
//
// Issue errors below 0 (an IO submitted before its intended time) are
// counted as `early` and go into the histograms as 0; the mean and max
// keep their sign. An inter-arrival below 0 (an IO submitted before the
// one preceding it in the trace) counts as 0. An IO lands in the interval
// of its submission time; one submitted before the current interval's
// start (out of order) counts in the current one.
//
// Threading: one thread Add()s; Result() on it or after it is done.
// Units: ns since the replay's start; depths in IOs.
#pragma once

#include <cstdint>

#include "model/latency_histogram.h"
#include "model/replay_outcome.h"

namespace flashmark {

// One replayed IO, in trace order.
struct ReplayIoRecord {
  int64_t intended_ns = -1;  // -1: no intended time (afap)
  int64_t issued_ns = 0;     // when its submission was made, since the start
  uint32_t achieved_depth = 0;
  uint32_t recorded_depth = 0;  // 0: unknown
};

class ReplayFidelityAccumulator {
 public:
  // `mean_interarrival_ns`: the trace's (sets the late threshold);
  // `interval_ns`: the series' step, 0 for no series.
  ReplayFidelityAccumulator(double mean_interarrival_ns, uint64_t interval_ns);

  void Add(const ReplayIoRecord& io);
  // The figures of every IO added so far, with the series up to the
  // interval of the last IO.
  ReplayFidelity Result() const;

 private:
  void CloseInterval();

  double late_threshold_ns_;
  uint64_t interval_ns_;
  uint64_t ios_ = 0;
  uint64_t timed_ios_ = 0;
  uint64_t early_ = 0;
  uint64_t reordered_ = 0;
  int64_t error_sum_ = 0;  // exact; 2^63 ns is 292 years of error
  int64_t error_max_ = INT64_MIN;
  int64_t latest_issued_ = 0;
  int64_t previous_issued_ = 0;
  uint64_t achieved_sum_ = 0;
  uint32_t achieved_max_ = 0;
  uint64_t recorded_sum_ = 0;
  uint32_t recorded_max_ = 0;
  bool recorded_known_ = true;
  LatencyHistogram gaps_;
  LatencyHistogram errors_;  // closed intervals' (the current one apart)
  // The current interval.
  uint64_t interval_index_ = 0;
  LatencyHistogram interval_errors_;
  int64_t interval_error_max_ = INT64_MIN;
  uint64_t interval_ios_ = 0;
  uint64_t interval_depth_sum_ = 0;
  std::vector<ReplayIntervalFidelity> series_;
};

}  // namespace flashmark
