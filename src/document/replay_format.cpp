#include "document/replay_format.h"

#include <cmath>

namespace flashmark {
namespace {

using json = nlohmann::json;

json ReplayOpsJson(const ReplayOpCount& ops) {
  return {{"reads", ops.reads},
          {"writes", ops.writes},
          {"flushes", ops.flushes},
          {"discards", ops.discards},
          {"read_bytes", ops.read_bytes},
          {"write_bytes", ops.write_bytes},
          {"discard_bytes", ops.discard_bytes}};
}

ReplayOpCount ReplayOpsFromJson(const json& value) {
  ReplayOpCount ops;
  if (!value.is_object()) return ops;
  ops.reads = value.value("reads", uint64_t{0});
  ops.writes = value.value("writes", uint64_t{0});
  ops.flushes = value.value("flushes", uint64_t{0});
  ops.discards = value.value("discards", uint64_t{0});
  ops.read_bytes = value.value("read_bytes", uint64_t{0});
  ops.write_bytes = value.value("write_bytes", uint64_t{0});
  ops.discard_bytes = value.value("discard_bytes", uint64_t{0});
  return ops;
}

// Columns, not one object per interval: a long replay has thousands.
// Errors to the ns, depths to 0.01 (what the histograms can tell).
json ReplaySeriesJson(const ReplayFidelity& f) {
  json ios = json::array(), p50 = json::array(), p99 = json::array(),
       max = json::array(), depth = json::array();
  for (const ReplayIntervalFidelity& point : f.series) {
    ios.push_back(point.ios);
    p50.push_back(std::llround(point.error_p50_ns));
    p99.push_back(std::llround(point.error_p99_ns));
    max.push_back(std::llround(point.error_max_ns));
    depth.push_back(std::round(point.achieved_depth_mean * 100) / 100);
  }
  json series = {{"interval_ns", f.series_interval_ns},
                 {"ios", ios},
                 {"achieved_depth_mean", depth}};
  if (f.timed) {
    series["error_p50_ns"] = p50;
    series["error_p99_ns"] = p99;
    series["error_max_ns"] = max;
  }
  return series;
}

double ReplaySeriesValue(const json& column, size_t i) {
  return column.is_array() && i < column.size() && column[i].is_number()
             ? column[i].get<double>()
             : 0.0;
}

void ReplaySeriesFromJson(const json& series, ReplayFidelity& f) {
  if (!series.is_object()) return;
  const json ios = series.value("ios", json());
  if (!ios.is_array()) return;
  f.series_interval_ns = series.value("interval_ns", uint64_t{0});
  const json p50 = series.value("error_p50_ns", json());
  const json p99 = series.value("error_p99_ns", json());
  const json max = series.value("error_max_ns", json());
  const json depth = series.value("achieved_depth_mean", json());
  for (size_t i = 0; i < ios.size(); ++i) {
    ReplayIntervalFidelity point;
    point.ios = ios[i].is_number_unsigned() ? ios[i].get<uint64_t>() : 0;
    point.error_p50_ns = ReplaySeriesValue(p50, i);
    point.error_p99_ns = ReplaySeriesValue(p99, i);
    point.error_max_ns = ReplaySeriesValue(max, i);
    point.achieved_depth_mean = ReplaySeriesValue(depth, i);
    f.series.push_back(point);
  }
}

}  // namespace

json ToJson(const ReplayOutcome& replay) {
  const ReplayFidelity& f = replay.fidelity;
  json fidelity = {
      {"ios", f.ios},
      {"timed", f.timed},
      {"reordered", f.reordered},
      {"interarrival_ns",
       {{"p50", f.interarrival_p50_ns}, {"p99", f.interarrival_p99_ns}}},
      {"achieved_depth_mean", f.achieved_depth_mean},
      {"achieved_depth_max", f.achieved_depth_max},
      {"late_threshold_ns", f.late_threshold_ns},
      {"kept_timing", f.kept_timing}};
  if (f.timed) {
    fidelity["issue_error_ns"] = {{"p50", f.error_p50_ns},
                                  {"p99", f.error_p99_ns},
                                  {"max", f.error_max_ns},
                                  {"mean", f.error_mean_ns}};
    fidelity["early"] = f.early;
  }
  if (f.series_interval_ns > 0) fidelity["series"] = ReplaySeriesJson(f);
  if (f.recorded_depth_mean) {
    fidelity["recorded_depth_mean"] = *f.recorded_depth_mean;
    fidelity["recorded_depth_max"] = f.recorded_depth_max;
  }
  return {{"trace_id", replay.trace_id},
          {"trace_source", replay.trace_source},
          {"timing", replay.timing},
          {"map", replay.map},
          {"depth", replay.depth},
          {"trace_ops", ReplayOpsJson(replay.trace_ops)},
          {"trace_interarrival_ns",
           {{"p50", replay.trace_interarrival_p50_ns},
            {"p99", replay.trace_interarrival_p99_ns}}},
          {"issued", ReplayOpsJson(replay.issued)},
          {"fidelity", fidelity},
          {"notes", replay.notes}};
}

ReplayOutcome ReplayOutcomeFromJson(const json& value) {
  ReplayOutcome replay;
  if (!value.is_object()) return replay;
  replay.trace_id = value.value("trace_id", int64_t{0});
  replay.trace_source = value.value("trace_source", "");
  replay.timing = value.value("timing", "");
  replay.map = value.value("map", "");
  replay.depth = value.value("depth", uint32_t{0});
  replay.trace_ops = ReplayOpsFromJson(value.value("trace_ops", json()));
  replay.issued = ReplayOpsFromJson(value.value("issued", json()));
  if (const json gaps = value.value("trace_interarrival_ns", json());
      gaps.is_object()) {
    replay.trace_interarrival_p50_ns = gaps.value("p50", 0.0);
    replay.trace_interarrival_p99_ns = gaps.value("p99", 0.0);
  }
  if (value.contains("notes") && value["notes"].is_array()) {
    for (const json& note : value["notes"]) {
      if (note.is_string()) replay.notes.push_back(note.get<std::string>());
    }
  }
  const json fidelity = value.value("fidelity", json::object());
  if (!fidelity.is_object()) return replay;
  ReplayFidelity& f = replay.fidelity;
  f.ios = fidelity.value("ios", uint64_t{0});
  f.timed = fidelity.value("timed", false);
  f.reordered = fidelity.value("reordered", uint64_t{0});
  const json gaps = fidelity.value("interarrival_ns", json());
  if (gaps.is_object()) {
    f.interarrival_p50_ns = gaps.value("p50", 0.0);
    f.interarrival_p99_ns = gaps.value("p99", 0.0);
  }
  f.achieved_depth_mean = fidelity.value("achieved_depth_mean", 0.0);
  f.achieved_depth_max = fidelity.value("achieved_depth_max", uint32_t{0});
  f.late_threshold_ns = fidelity.value("late_threshold_ns", 0.0);
  f.kept_timing = fidelity.value("kept_timing", true);
  const json error = fidelity.value("issue_error_ns", json());
  if (error.is_object()) {
    f.error_p50_ns = error.value("p50", 0.0);
    f.error_p99_ns = error.value("p99", 0.0);
    f.error_max_ns = error.value("max", 0.0);
    f.error_mean_ns = error.value("mean", 0.0);
  }
  f.early = fidelity.value("early", uint64_t{0});
  ReplaySeriesFromJson(fidelity.value("series", json()), f);
  if (fidelity.contains("recorded_depth_mean")) {
    f.recorded_depth_mean = fidelity.value("recorded_depth_mean", 0.0);
    f.recorded_depth_max = fidelity.value("recorded_depth_max", uint32_t{0});
  }
  return replay;
}

}  // namespace flashmark
