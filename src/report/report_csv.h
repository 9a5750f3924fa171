// `flashmark report --csv DIR`: the data behind every chart of a report,
// one CSV file per chart and run (runs.csv, timeseries-run<ID>.csv,
// latency-cdf-run<ID>.csv, groups.csv, comparison.csv) under DIR. Pure:
// the files are returned for the caller to write all or none
// (WriteFilesAtomically, which also creates DIR). Reads the report data
// (report_data.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/atomic_file.h"

namespace flashmark {

std::vector<PendingFile> ReportCsvFiles(const nlohmann::json& data,
                                        const std::string& directory);

}  // namespace flashmark
