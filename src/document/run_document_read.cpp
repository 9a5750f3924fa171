#include "document/run_document_read.h"

#include <fmt/format.h>

#include <cmath>

#include "analysis/run_summary.h"
#include "document/json_format.h"
#include "document/replay_format.h"
#include "document/telemetry_format.h"

namespace flashmark {
namespace {

using nlohmann::json;

uint64_t SecondsToNs(double seconds) {
  return static_cast<uint64_t>(std::llround(seconds * 1e9));
}

DirectionTotals TotalsFromJson(const json& value) {
  return {value.value("ios", uint64_t{0}), value.value("bytes", uint64_t{0})};
}

VerifyCounts VerifyFromJson(const json& value) {
  VerifyCounts counts;
  counts.checked = value.value("checked", uint64_t{0});
  counts.torn = value.value("torn", uint64_t{0});
  counts.misdirected = value.value("misdirected", uint64_t{0});
  counts.lost = value.value("lost", uint64_t{0});
  counts.newer = value.value("newer", uint64_t{0});
  return counts;
}

Error DocumentError(const std::string& what, const std::string& why) {
  return UsageError(fmt::format("run document: {}: {}", what, why),
                    "a flashmark run document (--json) is expected");
}

}  // namespace

std::optional<RunStatus> RunStatusFromName(const std::string& name) {
  for (RunStatus status : {RunStatus::kRunning, RunStatus::kOk,
                           RunStatus::kFailed, RunStatus::kInterrupted}) {
    if (RunStatusName(status) == name) return status;
  }
  return std::nullopt;
}

Result<IntervalSample> IntervalSampleFromJson(const json& value) {
  try {
    IntervalSample sample;
    sample.index = value.at("index").get<uint32_t>();
    const double start = value.at("start").get<double>();
    const double end = value.at("end").get<double>();
    if (!(start >= 0 && end >= start)) {
      return DocumentError(
          fmt::format("interval {}", sample.index),
          fmt::format("it runs from {} s to {} s", start, end));
    }
    sample.start_ns = SecondsToNs(start);
    sample.end_ns = SecondsToNs(end);
    sample.read = TotalsFromJson(value.at("read"));
    sample.write = TotalsFromJson(value.at("write"));
    sample.fsyncs = value.value("fsyncs", uint64_t{0});
    sample.errors = value.value("errors", uint64_t{0});
    const json& latency = value.at("latency");
    sample.read_latency = HistogramFromJson(latency.at("read"));
    sample.write_latency = HistogramFromJson(latency.at("write"));
    if (latency.contains("schedule")) {
      sample.schedule_latency = HistogramFromJson(latency.at("schedule"));
    }
    if (latency.contains("commit")) {
      sample.commit_latency = HistogramFromJson(latency.at("commit"));
    }
    if (latency.contains("split")) {
      const json& split = latency.at("split");
      sample.latency_split = {HistogramFromJson(split.at("flashmark")),
                              HistogramFromJson(split.at("queue")),
                              HistogramFromJson(split.at("device")),
                              HistogramFromJson(split.at("completion")),
                              {},
                              split.value("untraced", uint64_t{0})};
      if (split.contains("by_latency")) {
        auto bands = SplitByLatencyFromJson(split.at("by_latency"));
        if (!bands.ok()) {
          return DocumentError(fmt::format("interval {}", sample.index),
                               bands.error().message);
        }
        sample.latency_split.by_latency = std::move(*bands);
      }
    }
    if (value.contains("verify"))
      sample.verify = VerifyFromJson(value["verify"]);
    sample.partial = value.value("partial", false);
    sample.spans = value.value("spans", 1u);
    if (value.contains("telemetry")) {
      sample.telemetry = TelemetryFromJson(value["telemetry"]);
    }
    if (sample.spans == 0) {
      return DocumentError(fmt::format("interval {}", sample.index),
                           "it spans no interval");
    }
    return sample;
  } catch (const json::exception& e) {
    return DocumentError("interval", e.what());
  }
}

Result<RunResult> RunHeaderFromJson(const json& value) {
  try {
    if (value.value("schema", "") != kRunSchemaName) {
      return DocumentError("schema",
                           fmt::format("is not \"{}\"", kRunSchemaName));
    }
    RunResult run;
    auto spec = JobSpecFromJson(value.at("config"));
    if (!spec.ok()) return spec.error();
    run.spec = std::move(*spec);
    run.command_line = value.value("command_line", "");
    run.environment = EnvironmentFromJson(value.at("environment"));
    run.start_unix_ns = value.at("start_unix_ns").get<int64_t>();
    run.tool_version = value.value("tool_version", "");
    run.git_revision = value.value("git_revision", "");
    return run;
  } catch (const json::exception& e) {
    return DocumentError("header", e.what());
  }
}

Result<RunResult> RunFromJson(const json& value) {
  auto run = RunHeaderFromJson(value);
  if (!run.ok()) return run;
  try {
    for (const json& entry : value.at("intervals")) {
      auto sample = IntervalSampleFromJson(entry);
      if (!sample.ok()) return sample.error();
      run->intervals.push_back(std::move(*sample));
    }
    const auto status = RunStatusFromName(value.value("status", "running"));
    if (!status) {
      return DocumentError("status", value.value("status", "") + " is unknown");
    }
    // A document that still says "running" was left by a process that died.
    run->status =
        *status == RunStatus::kRunning ? RunStatus::kInterrupted : *status;
    run->end_unix_ns = value.value("end_unix_ns", int64_t{0});
    if (value.contains("error")) run->error = RunErrorFromJson(value["error"]);
    if (value.contains("replay"))
      run->replay = ReplayOutcomeFromJson(value["replay"]);
    const json summary = value.value("summary", json::object());
    const double last_end =
        run->intervals.empty() ? 0 : run->intervals.back().end_ns / 1e9;
    run->summary = SummarizeRun(run->intervals,
                                summary.value("elapsed_seconds", last_end));
    run->summary.cpu_user_seconds = summary.value("cpu_user_seconds", 0.0);
    run->summary.cpu_system_seconds = summary.value("cpu_system_seconds", 0.0);
    if (run->end_unix_ns == 0) {
      run->end_unix_ns =
          run->start_unix_ns + static_cast<int64_t>(last_end * 1e9);
    }
    return run;
  } catch (const json::exception& e) {
    return DocumentError("intervals", e.what());
  }
}

}  // namespace flashmark
