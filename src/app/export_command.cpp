#include <fmt/format.h>

#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "analysis/cancel.h"
#include "analysis/run_analysis.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "app/store_commands.h"
#include "common/atomic_file.h"
#include "common/json_text.h"
#include "document/json_format.h"
#include "report/headline_text.h"
#include "report/histogram_logs.h"
#include "report/interval_csv.h"
#include "report/telemetry_text.h"
#include "system/interrupt_watch.h"
#include "system/output_path.h"

namespace flashmark {

nlohmann::json StoredRunJson(const StoredRun& stored,
                             const CancelToken& cancel) {
  nlohmann::json doc = ToJson(stored.run);
  doc["id"] = stored.id;
  doc["label"] = stored.labels.label;
  doc["source"] = stored.labels.source;
  doc["tags"] = nlohmann::json::object();
  for (const auto& [key, value] : stored.labels.tags) doc["tags"][key] = value;
  // The headline by the rule every command uses (null: no full interval).
  auto headline = DefaultHeadline(stored.run, cancel);
  doc["headline"] =
      headline.ok()
          ? HeadlineJson(*headline, DescribeMetric(DefaultMetric(stored.run)))
          : nlohmann::json();
  doc["telemetry"] = TelemetryJson(SummarizeTelemetry(stored.run));
  return doc;
}

int ExecuteExport(const StoreCommandOptions& options) {
  const bool histograms =
      options.format == "hdr" || options.format == "clat_hist";
  if (options.format != "csv" && options.format != "json" && !histograms) {
    return PrintError(UsageError(
        fmt::format("--format: \"{}\" is not an export format", options.format),
        "use --format csv, json, hdr (HdrHistogram interval log) or clat_hist "
        "(fio's histogram log)"));
  }
  auto id = ParseRunId(options.runs.front());
  if (!id.ok()) return PrintError(id.error());
  std::optional<OutputPath> output;
  if (options.output) {
    auto checked =
        CheckOutputPath("-o", *options.output, OutputKind::kDocument);
    if (!checked.ok()) return PrintError(checked.error());
    output = std::move(*checked);
  }
  // SIGINT/SIGTERM end a long export with 130, nothing written.
  const InterruptWatch watch;
  auto store = OpenStoreToRead(options.db);
  if (!store.ok()) return PrintError(store.error());
  store->StopWhen(watch.flag());
  // The CSV streams the intervals' histograms (their latency columns)
  // instead of holding them all: a long run's would take gigabytes.
  const bool csv = options.format == "csv";
  auto stored = store->LoadRun(*id, /*with_histograms=*/!csv);
  std::vector<IntervalLatency> latencies;
  if (stored.ok() && csv) {
    latencies.resize(stored->run.intervals.size());
    Status scanned = store->ScanHistograms(
        *id, [&latencies](size_t position, const LatencyHistogram& read,
                          const LatencyHistogram& write) {
          if (position < latencies.size()) {
            latencies[position] = IntervalLatencyOf(read, write);
          }
        });
    if (!scanned.ok()) stored = scanned.error();
  }
  if (!stored.ok()) {
    return PrintError(watch.interrupted() ? InterruptedError()
                                          : stored.error());
  }

  std::ostringstream text;
  if (csv) {
    WriteIntervalsCsv(stored->run, latencies, text, CancelToken(watch.flag()));
  } else if (options.format == "hdr") {
    WriteHdrHistogramLog(stored->run, text);
  } else if (options.format == "clat_hist") {
    WriteFioHistogramLog(stored->run, text);
  } else {
    text << JsonText(StoredRunJson(*stored, CancelToken(watch.flag())), 1)
         << "\n";
  }
  if (watch.interrupted()) return PrintError(InterruptedError());
  if (!options.output) {
    std::cout << text.str();
    return 0;
  }
  // Written beside the target and renamed: never a half-written file.
  if (Status written = WriteFileAtomically(output->real, text.str());
      !written.ok()) {
    return PrintError(written.error());
  }
  return 0;
}

}  // namespace flashmark
