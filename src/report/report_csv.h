// `flashmark report --csv DIR`: the data behind every chart of a report,
// one CSV file per chart and run (runs.csv, timeseries-run<ID>.csv,
// latency-cdf-run<ID>.csv, groups.csv, comparison.csv), each written whole
// or not at all. Reads the report data (report_data.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"

namespace flashmark {

Status WriteReportCsv(const nlohmann::json& data, const std::string& directory);

}  // namespace flashmark
