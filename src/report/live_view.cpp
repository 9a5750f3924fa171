#include "report/live_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <string_view>

#include "report/text_escape.h"

namespace flashmark {
namespace {

using nlohmann::json;

// A tag key as a label name: [a-zA-Z0-9_] kept, anything else '_'.
std::string LabelName(const std::string& key) {
  std::string out = "tag_";
  for (unsigned char c : key)
    out += std::isalnum(c) ? static_cast<char>(c) : '_';
  return out;
}

std::string Labels(const ReportRun& run) {
  std::string labels = fmt::format("run=\"{}\"", run.stored.id);
  if (!run.stored.labels.label.empty()) {
    labels += fmt::format(",label=\"{}\"",
                          OpenMetricsLabelValue(run.stored.labels.label));
  }
  std::vector<std::string> seen;
  for (const auto& [key, value] : run.stored.labels.tags) {
    const std::string name = LabelName(key);
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
    seen.push_back(name);
    labels += fmt::format(",{}=\"{}\"", name, OpenMetricsLabelValue(value));
  }
  return labels;
}

const IntervalSample* LastFull(const RunResult& run) {
  for (auto it = run.intervals.rbegin(); it != run.intervals.rend(); ++it) {
    if (!it->partial) return &*it;
  }
  return nullptr;
}

}  // namespace

LiveRunState LiveRunState::Of(const RunResult& run) {
  LiveRunState state;
  state.running = run.status == RunStatus::kRunning;
  state.elapsed_seconds =
      run.intervals.empty() ? 0 : run.intervals.back().end_ns / 1e9;
  if (run.spec.time.count() > 0) {
    state.time_limit_seconds = run.spec.time.count() / 1e9;
  }
  state.until_steady = run.spec.until_steady;
  state.intervals = run.intervals.size();
  if (const IntervalSample* last = LastFull(run)) state.last_full = *last;
  return state;
}

bool HasFullInterval(const RunResult& run) {
  return std::any_of(run.intervals.begin(), run.intervals.end(),
                     [](const IntervalSample& s) { return !s.partial; });
}

json LiveReportData(const LiveSnapshot& snapshot, const std::string& title,
                    double poll_seconds) {
  json data;
  if (!snapshot.runs.empty()) {
    ReportInput input;
    input.title = title;
    for (const ReportRun& run : snapshot.runs) input.runs.push_back(run);
    auto built = BuildReportData(input);
    if (built.ok()) data = std::move(*built);
  }
  if (data.is_null()) {  // nothing to draw yet
    data = {{"schema", "flashmark.report"},
            {"schema_version", 1},
            {"title", title},
            {"runs", json::array()},
            {"charts", json::array()},
            {"notes", json::array({snapshot.waiting.empty()
                                       ? std::string("waiting for data")
                                       : snapshot.waiting})}};
  }
  json runs = json::array();
  for (size_t k = 0; k < snapshot.runs.size() && k < snapshot.states.size();
       ++k) {
    const LiveRunState& state = snapshot.states[k];
    const RunAnalysis& a = snapshot.runs[k].analysis;
    json eta = nullptr;
    if (state.running && state.time_limit_seconds) {
      eta = std::max(0.0, *state.time_limit_seconds - state.elapsed_seconds);
    }
    runs.push_back(
        {{"id", snapshot.runs[k].stored.id},
         {"running", state.running},
         {"elapsed_seconds", state.elapsed_seconds},
         {"time_limit_seconds",
          state.time_limit_seconds ? json(*state.time_limit_seconds) : json()},
         {"eta_seconds", eta},
         {"until_steady", state.until_steady},
         {"intervals", state.intervals},
         {"block_intervals", state.block_intervals},
         {"steady", a.snia.reached},
         {"verdict", a.headline.verdict_text}});
  }
  for (size_t k = 0; k < snapshot.runs.size() && k < snapshot.states.size();
       ++k) {
    const LiveRunState& state = snapshot.states[k];
    if (state.block_intervals <= 1) continue;
    if (!data["notes"].is_array()) data["notes"] = json::array();
    const RunResult& run = snapshot.runs[k].stored.run;
    data["notes"].push_back(fmt::format(
        "{}: {} intervals so far, shown live as {} blocks of {} intervals "
        "({:g} s; figures, steady state and regimes judged on those blocks); "
        "the stored run and its report keep every interval",
        RunName(snapshot.runs[k].stored), state.intervals, run.intervals.size(),
        state.block_intervals,
        run.spec.interval.count() / 1e9 * state.block_intervals));
  }
  data["live"] = {{"poll_seconds", poll_seconds},
                  {"waiting", snapshot.waiting},
                  {"runs", runs}};
  return data;
}

namespace {

// One run's figures, taken once for every family.
struct MetricsRow {
  std::string labels;
  const IntervalSample* last = nullptr;  // the last full interval
  const RunResult* run = nullptr;        // its summary: the totals so far
  const RunAnalysis* analysis = nullptr;
  const LiveRunState* state = nullptr;
};
// Writes one sample: the row's labels plus `extra` (",quantile=\"0.5\"").
using Emit = std::function<void(const std::string& extra, double value)>;

struct Family {
  const char* name;
  const char* type;  // "gauge" or "counter" (its samples end in _total)
  const char* unit;
  const char* help;
  void (*samples)(const MetricsRow& row, const Emit& emit);
};

const Family kFamilies[] = {
    {"flashmark_throughput_bytes_per_second", "gauge", "",
     "bytes per second in the last full interval, by direction",
     [](const MetricsRow& r, const Emit& emit) {
       if (!r.last) return;
       emit(",direction=\"read\"", r.last->read.bytes / r.last->seconds());
       emit(",direction=\"write\"", r.last->write.bytes / r.last->seconds());
     }},
    {"flashmark_iops", "gauge", "", "IOs per second in the last full interval",
     [](const MetricsRow& r, const Emit& emit) {
       if (r.last) emit("", r.last->Iops());
     }},
    {"flashmark_latency_seconds", "gauge", "seconds",
     "latency percentiles of the last full interval (reads and writes)",
     [](const MetricsRow& r, const Emit& emit) {
       if (!r.last) return;
       LatencyHistogram both = r.last->read_latency;
       both.Merge(r.last->write_latency);
       if (both.empty()) return;
       for (const auto& [text, q] :
            {std::pair{"0.5", 0.5}, {"0.99", 0.99}, {"0.999", 0.999}}) {
         emit(fmt::format(",quantile=\"{}\"", text), both.Quantile(q) / 1e9);
       }
     }},
    {"flashmark_bytes", "counter", "bytes",
     "bytes transferred since the run started, by direction",
     [](const MetricsRow& r, const Emit& emit) {
       emit(",direction=\"read\"", r.run->summary.read.bytes);
       emit(",direction=\"write\"", r.run->summary.write.bytes);
     }},
    {"flashmark_ios", "counter", "", "IOs completed since the run started",
     [](const MetricsRow& r, const Emit& emit) {
       emit("", r.run->summary.read.ios + r.run->summary.write.ios);
     }},
    {"flashmark_errors", "counter", "", "IO errors since the run started",
     [](const MetricsRow& r, const Emit& emit) {
       emit("", r.run->summary.errors);
     }},
    {"flashmark_intervals", "counter", "", "intervals sampled so far",
     [](const MetricsRow& r, const Emit& emit) {
       emit("", r.state ? r.state->intervals : r.run->intervals.size());
     }},
    {"flashmark_steady_state", "gauge", "",
     "1 when the SNIA steady state is reached on the headline window",
     [](const MetricsRow& r, const Emit& emit) {
       emit("", r.analysis->snia.reached ? 1 : 0);
     }},
    {"flashmark_running", "gauge", "", "1 while the run goes on",
     [](const MetricsRow& r, const Emit& emit) {
       emit("", r.state && r.state->running ? 1 : 0);
     }},
    {"flashmark_elapsed_seconds", "gauge", "seconds",
     "time since the run started, at its last interval",
     [](const MetricsRow& r, const Emit& emit) {
       emit("", r.state ? r.state->elapsed_seconds : 0.0);
     }},
};

}  // namespace

std::string LiveMetrics(const LiveSnapshot& snapshot) {
  std::vector<MetricsRow> rows;
  for (size_t k = 0; k < snapshot.runs.size(); ++k) {
    const ReportRun& run = snapshot.runs[k];
    const LiveRunState* state =
        k < snapshot.states.size() ? &snapshot.states[k] : nullptr;
    const IntervalSample* last = state && state->last_full
                                     ? &*state->last_full
                                     : LastFull(run.stored.run);
    rows.push_back({Labels(run), last, &run.stored.run, &run.analysis, state});
  }
  std::string out;
  for (const Family& family : kFamilies) {
    out += fmt::format("# TYPE {} {}\n", family.name, family.type);
    if (*family.unit) {
      out += fmt::format("# UNIT {} {}\n", family.name, family.unit);
    }
    out += fmt::format("# HELP {} {}\n", family.name, family.help);
    const std::string sample_name =
        std::string(family.name) +
        (std::string_view(family.type) == "counter" ? "_total" : "");
    for (const MetricsRow& row : rows) {
      family.samples(row, [&](const std::string& extra, double value) {
        out += fmt::format("{}{{{}{}}} {}\n", sample_name, row.labels, extra,
                           value);
      });
    }
  }
  out += "# EOF\n";
  return out;
}

}  // namespace flashmark
