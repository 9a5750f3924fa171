// IntervalSeries: a read-only view of one per-interval series (e.g. write
// MiB/s of every 1 s interval) with its time base. Value i covers the time
// span [start_seconds + i * interval_seconds, start_seconds + (i + 1) *
// interval_seconds). Times are seconds since the run started, so a series
// cut after a 1800 s warm-up passes start_seconds = 1800 and every time the
// analysis reports stays a run time. interval_seconds must be > 0.
// A plain view: the caller keeps the values alive.
#pragma once

#include <cstddef>
#include <span>

namespace flashmark {

struct IntervalSeries {
  std::span<const double> values;
  double interval_seconds = 1.0;
  double start_seconds = 0.0;

  size_t size() const { return values.size(); }
  // Start time of interval `index` (index == size() gives the series end).
  double TimeAt(size_t index) const {
    return start_seconds + static_cast<double>(index) * interval_seconds;
  }
};

}  // namespace flashmark
