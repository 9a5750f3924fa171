// LatencyHeatmap: a run's latency over time as counts in cells, time on
// one axis (a column per interval, adjacent intervals summed when there
// are more than the columns asked for) and latency on the other, in bands
// a quarter of an octave wide (2^(r/4) ns to 2^((r+1)/4) ns, so each band
// is 19 % wider than the one below), from the per-interval histograms
// (Brendan Gregg's latency heatmaps). Pure values; the builder is not
// thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/latency_histogram.h"

namespace flashmark {

struct LatencyHeatmap {
  static constexpr int kRowsPerOctave = 4;
  std::vector<double> column_start;  // seconds since the run started
  std::vector<double> column_end;
  int first_row = 0;  // the lowest band with an IO
  int row_count = 0;  // bands from first_row up to the highest with an IO
  // counts[column][row - first_row]: IOs that completed in that band.
  std::vector<std::vector<uint64_t>> counts;

  // The band of a latency, and a band's bounds in nanoseconds.
  static int RowOf(double ns);
  static double RowLowerNs(int row);
  static double RowUpperNs(int row) { return RowLowerNs(row + 1); }
  uint64_t total() const;
};

class LatencyHeatmapBuilder {
 public:
  // One interval (seconds since the run started) and its IOs' latencies,
  // in time order.
  void Add(double start_seconds, double end_seconds,
           const LatencyHistogram& histogram);
  // At most `max_columns` columns (>= 1): each the sum of as many
  // consecutive intervals as that needs.
  LatencyHeatmap Result(size_t max_columns) const;

 private:
  struct Column {
    double start = 0, end = 0;
    std::vector<std::pair<int, uint64_t>> rows;  // (band, count), ascending
  };
  std::vector<Column> columns_;
};

}  // namespace flashmark
