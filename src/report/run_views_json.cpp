#include "report/run_views_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "analysis/latency_spectrum.h"

namespace flashmark {
namespace {

using nlohmann::json;

double Milliseconds(double ns) { return ns / 1e6; }

}  // namespace

json HeatmapJson(const LatencyHeatmap& map) {
  if (map.counts.empty() || map.total() == 0) return nullptr;
  json rows = json::array(), cells = json::array();
  for (int r = 0; r < map.row_count; ++r) {
    rows.push_back(Milliseconds(LatencyHeatmap::RowLowerNs(map.first_row + r)));
  }
  for (size_t c = 0; c < map.counts.size(); ++c) {
    for (int r = 0; r < map.row_count; ++r) {
      if (map.counts[c][r] > 0) cells.push_back({c, r, map.counts[c][r]});
    }
  }
  return {{"start", map.column_start},
          {"end", map.column_end},
          {"row_low_ms", rows},
          {"row_top_ms", Milliseconds(LatencyHeatmap::RowUpperNs(
                             map.first_row + map.row_count - 1))},
          {"cells", cells}};
}

json SpectrumJson(const LatencyHistogram& histogram) {
  json points = json::array();
  for (const SpectrumPoint& p : PercentileSpectrum(histogram)) {
    points.push_back({{"percentile", p.percentile},
                      {"x", 1 / (1 - p.percentile / 100)},
                      {"ms", Milliseconds(p.ns)},
                      {"beyond", p.beyond},
                      {"few", p.few}});
  }
  return {{"points", points},
          {"count", histogram.count()},
          {"max_ms",
           histogram.empty() ? json() : json(Milliseconds(histogram.Max()))},
          {"few_below", kFewBeyond}};
}

std::string TargetDevicesText(const RunResult& run) {
  std::vector<std::string> names;
  for (const IntervalSample& sample : run.intervals) {
    for (const DiskActivity& disk : sample.telemetry.disks) {
      if (disk.member_of.empty() &&
          std::find(names.begin(), names.end(), disk.device) == names.end()) {
        names.push_back(disk.device);
      }
    }
    if (!names.empty()) break;
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace flashmark
