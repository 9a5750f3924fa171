// How every command shows a run's headline (analysis/headline.h): the same
// figure, the whole-run median beside it, each change, the verdict and the
// rule, so that `run`, `show`, `analyze`, `list`, `compare`, `report` and
// the sweep table read alike. Values are the metric's raw values (the
// display unit for throughput and IOPS metrics); the text uses 3-4
// significant digits. Writes to the injected stream only; pure otherwise.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/headline.h"
#include "analysis/metric.h"
#include "model/run_result.h"

namespace flashmark {

// A value with 3-4 significant digits: 1234, 123.4, 12.34, 1.234.
std::string SignificantText(double value);
// A metric value in its display unit, 3-4 significant digits.
std::string MetricValueText(double raw, const MetricInfo& info);

// A change with its values in the metric's display unit.
ChangePoint ScaledChange(ChangePoint change, const MetricInfo& info);

// "headline: median 300.1 MiB/s (95 % CI 298.0..302.4) over the final
// regime (3999..7200 s); whole run median 340.2 MiB/s", then one line per
// change ("write throughput changed at t=3999 s: 380 -> 300 MiB/s
// (-21 %)"), the verdict and "rule: ..."; each line starts with `indent`,
// the lines under the first with two spaces more.
void PrintHeadline(const Headline& headline, const MetricInfo& info,
                   std::string_view indent, std::ostream& out);

// A --detect-throttle run's bucket first (report/throttle_text.h), then
// a run's headline by the defaults every command uses
// (DefaultAnalysisOptions), printed as PrintHeadline does, then, when the
// run changed regime, a warning that its figure is the final regime's.
// A run without a headline (no full interval) gets one line saying why;
// once `cancel` is cancelled nothing more is printed (the caller exits
// as interrupted).
void PrintRunHeadline(const RunResult& run, std::string_view indent,
                      std::ostream& out, const CancelToken& cancel = {});

// A table cell: "write 300.1 MiB/s", with " (N changes)" appended when the
// run changed regime (its figure is then the final regime's).
std::string HeadlineCell(const Headline& headline, const MetricInfo& info);

// Under a table of headline cells: which rule gave them, with the warm-up
// the runs were analysed with (each run's own defaults, DefaultAnalysisOptions:
// the one its campaign's [analysis] chose; "each run's own" when they
// differ).
std::string HeadlineRuleNote(WarmupMode warmup, double warmup_seconds = 0);
std::string HeadlineRuleNote(const std::vector<const RunResult*>& runs);

// The headline as JSON: figure, CI, window, regimes, changes (as text),
// whole-run median, verdict and rule, with the metric's name and unit.
nlohmann::json HeadlineJson(const Headline& headline, const MetricInfo& info);

}  // namespace flashmark
