#include "analysis/latency_heatmap.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include "model/histogram_buckets.h"

namespace flashmark {

int LatencyHeatmap::RowOf(double ns) {
  if (ns < 1) return 0;
  return static_cast<int>(std::floor(kRowsPerOctave * std::log2(ns)));
}

double LatencyHeatmap::RowLowerNs(int row) {
  return std::exp2(static_cast<double>(row) / kRowsPerOctave);
}

namespace {

// The band of each bucket's midpoint, worked out once: a long run's
// histograms have thousands of buckets each, and a log2 per bucket was
// most of what a heatmap cost.
int BucketRow(uint32_t index) {
  static const std::vector<int> rows = [] {
    std::vector<int> table(buckets::kCount);
    for (uint32_t i = 0; i < buckets::kCount; ++i) {
      table[i] = LatencyHeatmap::RowOf(buckets::Midpoint(i));
    }
    return table;
  }();
  return index < rows.size() ? rows[index]
                             : LatencyHeatmap::RowOf(buckets::Midpoint(index));
}

}  // namespace

uint64_t LatencyHeatmap::total() const {
  uint64_t sum = 0;
  for (const auto& column : counts) {
    for (uint64_t count : column) sum += count;
  }
  return sum;
}

void LatencyHeatmapBuilder::Add(double start_seconds, double end_seconds,
                                const LatencyHistogram& histogram) {
  Column column;
  column.start = start_seconds;
  column.end = end_seconds;
  for (const auto& bucket : histogram.buckets()) {
    const int row = BucketRow(bucket.index);
    if (!column.rows.empty() && column.rows.back().first == row) {
      column.rows.back().second += bucket.count;
    } else {
      column.rows.emplace_back(row, bucket.count);
    }
  }
  columns_.push_back(std::move(column));
}

LatencyHeatmap LatencyHeatmapBuilder::Result(size_t max_columns) const {
  LatencyHeatmap map;
  if (columns_.empty()) return map;
  int low = INT_MAX, high = INT_MIN;
  for (const Column& column : columns_) {
    if (column.rows.empty()) continue;
    low = std::min(low, column.rows.front().first);
    high = std::max(high, column.rows.back().first);
  }
  if (low > high) low = high = 0;  // no IO at all
  map.first_row = low;
  map.row_count = high - low + 1;
  const size_t per = (columns_.size() + std::max<size_t>(1, max_columns) - 1) /
                     std::max<size_t>(1, max_columns);
  for (size_t first = 0; first < columns_.size(); first += per) {
    const size_t last = std::min(columns_.size(), first + per) - 1;
    map.column_start.push_back(columns_[first].start);
    map.column_end.push_back(columns_[last].end);
    std::vector<uint64_t> counts(map.row_count, 0);
    for (size_t k = first; k <= last; ++k) {
      for (const auto& [row, count] : columns_[k].rows) {
        counts[row - low] += count;
      }
    }
    map.counts.push_back(std::move(counts));
  }
  return map;
}

}  // namespace flashmark
