#include <fmt/format.h>

#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "analysis/cancel.h"
#include "analysis/run_analysis.h"
#include "analysis/telemetry_summary.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "app/store_commands.h"
#include "app/text_output.h"
#include "config/tag_options.h"
#include "document/json_format.h"
#include "report/headline_text.h"
#include "report/interval_csv.h"
#include "report/profile_figures.h"
#include "report/replay_text.h"
#include "report/stored_run_stream.h"
#include "report/telemetry_text.h"
#include "report/throttle_text.h"
#include "system/interrupt_watch.h"
#include "system/output_path.h"

namespace flashmark {

nlohmann::json StoredRunJson(const StoredRun& stored, const CancelToken& cancel,
                             bool with_intervals) {
  nlohmann::json doc = ToJson(stored.run, with_intervals);
  doc["id"] = stored.id;
  doc["label"] = stored.labels.label;
  doc["source"] = stored.labels.source;
  doc["tags"] = nlohmann::json::object();
  for (const auto& [key, value] : stored.labels.tags) doc["tags"][key] = value;
  // The headline by the rule every command uses (null: no full interval).
  auto headline = DefaultHeadline(stored.run, cancel);
  doc["headline"] =
      headline.ok()
          ? HeadlineJson(*headline, DescribeMetric(HeadlineMetric(stored.run)))
          : nlohmann::json();
  doc["throttle"] = RunThrottleJson(stored.run, cancel);
  const TelemetrySummary telemetry = SummarizeTelemetry(stored.run);
  doc["telemetry"] = TelemetryJson(telemetry);
  if (const std::string* tbw = FindTag(stored.labels.tags, "tbw")) {
    doc["endurance"] = EnduranceJson(telemetry, *tbw);
  }
  if (!stored.run.spec.profile.empty()) {
    doc["profile"] = ProfileFiguresJson(stored.run);
  }
  if (stored.run.replay) {
    const std::string late = ReplayHeadlineNote(*stored.run.replay);
    if (!late.empty()) doc["headline_note"] = late;
  }
  return doc;
}

namespace {

// The CSV's latency columns from the intervals' histograms, streamed (a
// few numbers per interval are kept), then the whole text.
Status ExportCsv(RunStore& store, const StoredRun& stored,
                 const CancelToken& cancel, const TextSink& write) {
  std::vector<IntervalLatency> latencies(stored.run.intervals.size());
  Status scanned = store.VisitHistograms(
      stored.id, 7,
      [&](size_t position, std::span<const LatencyHistogram> histograms,
          const SplitByLatency& by_latency) {
        if (position < latencies.size()) {
          latencies[position] = IntervalLatencyOf(
              histograms[0], histograms[1],
              SplitAtMedianNs({&histograms[3], &histograms[4], &histograms[5],
                               &histograms[6]},
                              by_latency));
        }
        return OkStatus();
      });
  if (!scanned.ok()) return scanned;
  std::ostringstream text;
  WriteIntervalsCsv(stored.run, latencies, text, cancel);
  if (cancel.cancelled()) return InterruptedError();
  return write(text.str());
}

}  // namespace

int ExecuteExport(const StoreCommandOptions& options) {
  if (options.format != "csv" && options.format != "json" &&
      options.format != "hdr" && options.format != "clat_hist") {
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
  // SIGINT/SIGTERM end a long export with 130 (-o's file untouched).
  const InterruptWatch watch;
  auto store = OpenStoreToRead(options.db);
  if (!store.ok()) return PrintError(store.error());
  store->StopWhen(watch.flag());
  // Every format streams the intervals' histograms instead of holding
  // them all: a long run's would take gigabytes.
  auto stored = store->LoadRun(*id, /*with_histograms=*/false);
  if (!stored.ok()) {
    return PrintError(watch.interrupted() ? InterruptedError()
                                          : stored.error());
  }
  auto out =
      TextOutput::Open(output ? std::optional(output->real) : std::nullopt);
  if (!out.ok()) return PrintError(out.error());
  const TextSink write = [&out](std::string_view text) {
    return out->Write(text);
  };
  const CancelToken cancel(watch.flag());
  Status produced = OkStatus();
  if (options.format == "csv") {
    produced = ExportCsv(*store, *stored, cancel, write);
  } else if (options.format == "hdr") {
    produced = StreamHdrHistogramLog(*store, *stored, write);
  } else if (options.format == "clat_hist") {
    produced = StreamFioHistogramLog(*store, *stored, write);
  } else {
    produced = StreamRunJson(*store, *stored,
                             StoredRunJson(*stored, cancel, false), write);
  }
  return out->Finish(produced, watch.interrupted());
}

}  // namespace flashmark
