// IntervalSeries: a read-only view of one per-interval series (e.g. write
// MiB/s of every 1 s interval) with its time base. Times are seconds since
// the run started, so a series cut after a 1800 s warm-up stays in run
// times. Value i covers [TimeAt(i), TimeAt(i + 1)):
//   - with `bounds` (size() + 1 entries: the start of each value, then the
//     end of the last), the measured times: a run's intervals are a little
//     longer or shorter than nominal, and one sample may cover a stall of
//     several intervals (IntervalSample::spans);
//   - without, the nominal grid start_seconds + i * interval_seconds.
// interval_seconds (> 0) is the configured length, which the criteria use
// to count intervals per round or window. A plain view: the caller keeps
// the values (and bounds) alive.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>

namespace flashmark {

struct IntervalSeries {
  IntervalSeries() = default;
  IntervalSeries(std::span<const double> values_in,
                 double interval_seconds_in = 1.0,
                 double start_seconds_in = 0.0,
                 std::span<const double> bounds_in = {})
      : values(values_in),
        interval_seconds(interval_seconds_in),
        start_seconds(start_seconds_in),
        bounds(bounds_in) {}

  std::span<const double> values;
  double interval_seconds = 1.0;
  double start_seconds = 0.0;      // without bounds: the grid's origin
  std::span<const double> bounds;  // empty, or size() + 1 times

  size_t size() const { return values.size(); }
  // Start time of interval `index` (index == size() gives the series end).
  double TimeAt(size_t index) const {
    if (!bounds.empty()) return bounds[std::min(index, bounds.size() - 1)];
    return start_seconds + static_cast<double>(index) * interval_seconds;
  }
  // The values from `first` (<= size()) on, in the same run times.
  IntervalSeries Suffix(size_t first) const {
    return IntervalSeries(values.subspan(first), interval_seconds,
                          TimeAt(first),
                          bounds.empty() ? bounds : bounds.subspan(first));
  }
  // Index of the first value that starts at or after `seconds` (within a
  // microsecond); size() when none does.
  size_t FirstStartingAt(double seconds) const {
    size_t low = 0, high = size();
    while (low < high) {
      const size_t mid = low + (high - low) / 2;
      if (TimeAt(mid) < seconds - 1e-6) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
};

}  // namespace flashmark
