// The results in one job entry of fio 3.x JSON output, read with errors
// that name their JSON path ("FILE: JSON path /jobs/0/read/iops: ..."):
// per direction ("read", "write", "trim") the totals, the runtime and the
// JSON+ latency buckets, and fio's own figures as ToolFigures (IOPS,
// bandwidth, io_bytes, clat/lat/slat, clat percentiles in percent order,
// the "steadystate" block). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "model/run_result.h"
#include "store/import_common.h"

namespace flashmark {

inline constexpr const char* kFioJsonHint =
    "import fio's complete JSON output (fio 3.x: --output-format=json or "
    "json+ --output=FILE)";

// "/jobs/0" and "read" -> "/jobs/0/read" (JSON pointer escaping).
std::string JsonChild(const std::string& path, std::string_view key);
// parent[key] when it has `type` (number_float: any number), else a usage
// error naming its path.
Result<const nlohmann::json*> FioMember(const ImportFile& file,
                                        const nlohmann::json& parent,
                                        const std::string& path,
                                        const char* key,
                                        nlohmann::json::value_t type);
Result<double> FioNumber(const ImportFile& file, const nlohmann::json& parent,
                         const std::string& path, const char* key);

struct FioSide {
  DirectionTotals totals;
  double runtime_ms = 0;       // fio's IOPS and bandwidth are over this
  LatencyHistogram histogram;  // JSON+ clat buckets
  std::vector<uint64_t>
      bins;  // the same per fio bin; empty: none, or not fio's
};

// One direction of `job` (at `job_path`); adds its figures to `report`
// (none for a direction without IO).
Result<FioSide> ReadFioSide(const ImportFile& file, const nlohmann::json& job,
                            const std::string& job_path, const char* name,
                            ToolReport& report);

// fio's "steadystate" block (ss=...) as figures and a note; nothing when
// the job has none.
void AddFioSteadyState(const nlohmann::json& job, ToolReport& report);

}  // namespace flashmark
