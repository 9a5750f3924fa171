// The burst bucket of a throttled volume (a cloud disk's burst credits, a
// cgroup's changing io limit), found in a --detect-throttle run: "burst
// 3000 IOPS for 412 s, then baseline 300 IOPS; refills 100 IOPS-s per s".
//
// Model: the volume serves `burst` IOPS while its bucket holds credits and
// `baseline` IOPS once it is empty; serving above the baseline spends one
// credit per IO above it, and credits come back at `refill` per second
// while the volume idles (up to a full bucket). The run follows
// model/throttle_schedule.h: a long first load phase, then idle gaps of
// growing length, each followed by load.
// The finding, from the IOs of each interval (an interval belongs to the
// phase or gap that holds its midpoint):
// 1. Regimes (change_points.h) of the first load phase's IOPS, with a
//    minimum segment of a 24th of it (3..60 intervals). When the phase
//    changed regime: the burst is the highest earlier regime's median, the
//    baseline the final regime's. When it did not (the significance tests
//    there are made for long regimes, and a burst of 20 intervals with
//    5 % noise can fall under them): the best single step (l1_split.h),
//    the medians of its two sides, when they differ by 8 robust standard
//    errors (1.4826 MAD / sqrt(n) each side). The burst and the baseline
//    are then the IO rates (IOs / time) of their intervals, less the one
//    at each boundary, not their medians: a throttle that dispatches in
//    slices (blk-throttle: 100 ms) makes 250 ms intervals alternate 2400,
//    1600, 2400 at 2000 IOPS, whose median is either. Throttled when the
//    baseline lies below the burst by more than kThrottleDrop (medians
//    and rates both); otherwise "no throttling seen", never a burst.
// 2. Bucket: the IOs above the baseline from the phase's start to the
//    baseline's second interval (so the interval the bucket ran dry in
//    counts wherever the boundary fell); the burst lasted bucket / (burst -
//    baseline) seconds: to a fraction of an interval, not to a boundary.
// 3. Refill: after each gap, the IOs above the baseline of the load phase
//    that follows. A probe counts when the phase ended back at the baseline
//    (the median of its last quarter within a quarter of burst - baseline
//    of it) and the gap refilled less than 90 % of the bucket; refill is
//    the least-squares slope through the origin of refilled IOs against
//    gap length. Otherwise refill is not found and refill_note says why.
// Units: IOPS, IOs, seconds since the run started. Pure; thread-safe.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analysis/change_points.h"
#include "common/result.h"
#include "model/run_result.h"
#include "model/throttle_schedule.h"

namespace flashmark {

// The relative drop from burst to baseline below which a change of regime
// is not called throttling (2 % would be any regime change).
inline constexpr double kThrottleDrop = 0.10;

struct ThrottleInterval {
  double start_seconds = 0;
  double end_seconds = 0;
  double ios = 0;  // reads and writes
};

struct ThrottleProbe {
  double gap_seconds = 0;   // idle before this load phase
  double refilled_ios = 0;  // IOs above the baseline in the phase after it
  bool spent = false;       // the phase ended at the baseline
  bool full = false;        // >= 90 % of the bucket came back
  bool used = false;        // in the refill fit
};

struct ThrottleFinding {
  bool throttled = false;
  double steady_iops = 0;  // not throttled: median of the load intervals
  double burst_iops = 0;
  double baseline_iops = 0;
  double burst_seconds = 0;  // how long a full bucket lasted
  double bucket_ios = 0;     // IOs above the baseline it held
  bool refill_found = false;
  double refill_per_second = 0;  // IOs above the baseline per idle second
  std::string refill_note;       // when !refill_found: why
  std::vector<ThrottleProbe> probes;
  ChangePointResult regimes;       // of the first load phase
  bool step_from_regimes = false;  // else from the single L1 step
  size_t first_phase_intervals = 0;
};

// Errors: a schedule without load phases, or a first load phase with fewer
// than 6 intervals (UsageError).
Result<ThrottleFinding> FindThrottle(
    std::span<const ThrottleInterval> intervals,
    const ThrottleSchedule& schedule, const CancelToken& cancel = {});

// A --detect-throttle run's finding from its full intervals and the
// schedule its spec gives; a run without --detect-throttle is a UsageError.
Result<ThrottleFinding> FindRunThrottle(const RunResult& run,
                                        const CancelToken& cancel = {});

// "burst 3000 IOPS for 412 s, then baseline 300 IOPS; refills 100 IOPS-s
// per s", "...; refill not found (why)", or "no throttling seen: 28900 IOPS
// throughout"; values as FormatSignificant prints them.
std::string ThrottleSentence(const ThrottleFinding& finding);

}  // namespace flashmark
