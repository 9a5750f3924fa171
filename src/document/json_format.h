// JSON forms of the result model (nlohmann::json), shared by --json, the
// store and exports. Schema "flashmark.run", version kRunSchemaVersion,
// separate from the tool version. Latency histograms are sparse: bucket
// indexes "i" and counts "c" over the layout named in "histogram_layout".
// Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "model/environment.h"
#include "model/job_spec.h"
#include "model/run_result.h"
#include "model/verify_result.h"

namespace flashmark {

inline constexpr int kRunSchemaVersion = 1;
inline constexpr const char* kRunSchemaName = "flashmark.run";

nlohmann::json ToJson(const JobSpec& spec);
// A campaign's [analysis] settings: the fields set, as written ({} if
// none); reading ignores what is not a string (a stored run stays readable).
nlohmann::json AnalysisSettingsJson(const AnalysisSettings& settings);
AnalysisSettings AnalysisSettingsFromJson(const nlohmann::json& value);
nlohmann::json ToJson(const Environment& environment);
nlohmann::json ToJson(const LatencyHistogram& histogram);
nlohmann::json ToJson(const IntervalSample& sample);
nlohmann::json ToJson(const SeriesSummary& series);
nlohmann::json ToJson(const RunSummary& summary);
nlohmann::json ToJson(const RunError& error);
nlohmann::json ToJson(const VerifyCounts& counts);
nlohmann::json ToJson(const VerifyMismatch& mismatch);
nlohmann::json ToJson(const VerifyOutcome& outcome);
nlohmann::json HistogramLayoutJson();

// The header of a run document (everything known at start).
nlohmann::json RunHeaderJson(const RunResult& run);
// The whole document (header, intervals, status, summary). Without
// intervals, "intervals" is [] (for a writer that streams them:
// report/stored_run_stream.h).
nlohmann::json ToJson(const RunResult& run, bool with_intervals = true);

// --trace-latency's bands: [[band, IOs, flashmark ns, queue ns, device ns,
// completion ns], ...].
nlohmann::json ToJson(const SplitByLatency& split);

// Reading back (for the store and exports).
LatencyHistogram HistogramFromJson(const nlohmann::json& value);
// An error says which band is malformed.
Result<SplitByLatency> SplitByLatencyFromJson(const nlohmann::json& value);
Result<JobSpec> JobSpecFromJson(const nlohmann::json& config);
Environment EnvironmentFromJson(const nlohmann::json& value);
RunError RunErrorFromJson(const nlohmann::json& value);
// A summary's figures as ToJson(RunSummary) writes them ("iops",
// "latency"...); zeros for what is missing.
SeriesSummary SeriesSummaryFromJson(const nlohmann::json& value);
LatencySummary LatencySummaryFromJson(const nlohmann::json& value);
LatencySplitSummary LatencySplitSummaryFromJson(const nlohmann::json& value);

}  // namespace flashmark
