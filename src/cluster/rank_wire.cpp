#include "cluster/rank_wire.h"

#include "analysis/run_summary.h"
#include "common/json_text.h"
#include "document/json_format.h"
#include "document/run_document_read.h"

namespace flashmark {

using nlohmann::json;

std::string HeaderMessage(const RunResult& run,
                          int64_t start_on_rank0_clock_ns) {
  return JsonText(json{{"type", "header"},
                       {"run", RunHeaderJson(run)},
                       {"start_on_rank0_clock_ns", start_on_rank0_clock_ns}});
}

std::string IntervalMessage(const IntervalSample& sample) {
  return JsonText(json{{"type", "interval"}, {"sample", ToJson(sample)}});
}

std::string EndMessage(const RunResult& run, uint64_t mpi_ns) {
  json out = {{"type", "end"},
              {"status", RunStatusName(run.status)},
              {"end_unix_ns", run.end_unix_ns},
              {"elapsed_seconds", run.summary.elapsed_seconds},
              {"cpu_user_seconds", run.summary.cpu_user_seconds},
              {"cpu_system_seconds", run.summary.cpu_system_seconds},
              {"engine_setup", run.environment.engine_setup},
              {"mpi_ns", mpi_ns}};
  if (run.error) out["error"] = ToJson(*run.error);
  return JsonText(out);
}

std::string StopMessage() { return JsonText(json{{"type", "stop"}}); }

Result<RankMessage> ParseRankMessage(const std::string& text) {
  const json value = json::parse(text, nullptr, false);
  if (!value.is_object()) return RuntimeError("rank message: not JSON");
  RankMessage message;
  const std::string type = value.value("type", "");
  if (type == "header") {
    message.kind = RankMessageKind::kHeader;
    auto run = RunHeaderFromJson(value.value("run", json::object()));
    if (!run.ok()) return run.error();
    message.run = std::move(*run);
    message.start_on_rank0_clock_ns =
        value.value("start_on_rank0_clock_ns", int64_t{0});
  } else if (type == "interval") {
    message.kind = RankMessageKind::kInterval;
    auto sample = IntervalSampleFromJson(value.value("sample", json::object()));
    if (!sample.ok()) return sample.error();
    message.sample = std::move(*sample);
  } else if (type == "end") {
    message.kind = RankMessageKind::kEnd;
    const auto status = RunStatusFromName(value.value("status", ""));
    if (!status) return RuntimeError("rank message: unknown end status");
    message.run.status = *status;
    message.run.end_unix_ns = value.value("end_unix_ns", int64_t{0});
    message.run.summary.elapsed_seconds = value.value("elapsed_seconds", 0.0);
    message.run.summary.cpu_user_seconds = value.value("cpu_user_seconds", 0.0);
    message.run.summary.cpu_system_seconds =
        value.value("cpu_system_seconds", 0.0);
    message.run.environment.engine_setup = value.value("engine_setup", "");
    message.mpi_ns = value.value("mpi_ns", uint64_t{0});
    if (value.contains("error")) {
      message.run.error = RunErrorFromJson(value["error"]);
    }
  } else if (type == "stop") {
    message.kind = RankMessageKind::kStop;
  } else {
    return RuntimeError("rank message: unknown type \"" + type + "\"");
  }
  return message;
}

void ApplyEnd(RunResult& run, const RunResult& end) {
  run.status = end.status;
  run.error = end.error;
  run.end_unix_ns = end.end_unix_ns;
  if (!end.environment.engine_setup.empty()) {
    run.environment.engine_setup = end.environment.engine_setup;
  }
  run.summary = SummarizeRun(run.intervals, end.summary.elapsed_seconds);
  run.summary.cpu_user_seconds = end.summary.cpu_user_seconds;
  run.summary.cpu_system_seconds = end.summary.cpu_system_seconds;
}

}  // namespace flashmark
