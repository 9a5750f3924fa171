// The views of a run beyond its throughput, as the report data draws them
// (report_data.h): the latency heatmap (columns of time, bands of
// latency, the non-zero cells), the percentile spectrum ("nines", points
// on few IOs marked) and the names of the devices the targets sit on.
// Latencies in ms. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/latency_heatmap.h"
#include "model/latency_histogram.h"
#include "model/run_result.h"

namespace flashmark {

// {start, end, row_low_ms, row_top_ms, cells: [[column, row, count]]};
// null when the map holds no IO.
nlohmann::json HeatmapJson(const LatencyHeatmap& map);
// {points: [{percentile, x = 1/(1-p), ms, beyond, few}], count, max_ms,
// few_below}.
nlohmann::json SpectrumJson(const LatencyHistogram& histogram);
// "vda" or "md0, vdb": the targets' devices (members left out), for a
// chart's legend; "" without telemetry.
std::string TargetDevicesText(const RunResult& run);

}  // namespace flashmark
