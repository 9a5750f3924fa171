// Turns AnalysisSettings (model/analysis_settings.h: --warmup, --metric,
// --round, --min-segment, --gate as text, from a command line or from a
// campaign's [analysis] table) into AnalysisOptions, and says where a
// command's own option replaced its campaign's choice. Errors are usage
// errors naming the option (or the [analysis] key), the value and a hint.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "common/result.h"
#include "model/analysis_settings.h"

namespace flashmark {

// kCommandLine names "--warmup"; kCampaign names "[analysis] warmup" and
// accepts only a headline metric (throughput or IOPS): the campaign's
// choice becomes its runs' headline in list and the sweep table.
enum class SettingsSource { kCommandLine, kCampaign };

// Sets in `options` what `settings` gives; `interval_seconds` is the
// run's interval (a round or a regime is at least one or two of them).
Status ApplyAnalysisSettings(const AnalysisSettings& settings,
                             double interval_seconds, SettingsSource source,
                             AnalysisOptions& options);

// One line per field the command gave that its run's campaign also set
// differently: "--warmup 6s (the campaign's [analysis] says warmup = 30m)".
std::vector<std::string> AnalysisOverrides(const AnalysisSettings& campaign,
                                           const AnalysisSettings& command);

}  // namespace flashmark
