#include "report/live_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analysis/metric.h"

namespace flashmark {
namespace {

using nlohmann::json;

// OpenMetrics label value: backslash, quote and newline escaped.
std::string LabelValue(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

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
    labels += fmt::format(",label=\"{}\"", LabelValue(run.stored.labels.label));
  }
  std::vector<std::string> seen;
  for (const auto& [key, value] : run.stored.labels.tags) {
    const std::string name = LabelName(key);
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
    seen.push_back(name);
    labels += fmt::format(",{}=\"{}\"", name, LabelValue(value));
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
         {"steady", a.snia.reached},
         {"verdict", a.headline.verdict_text}});
  }
  data["live"] = {{"poll_seconds", poll_seconds},
                  {"waiting", snapshot.waiting},
                  {"runs", runs}};
  return data;
}

std::string LiveMetrics(const LiveSnapshot& snapshot) {
  struct Family {
    const char* name;
    const char* type;
    const char* unit;
    const char* help;
  };
  static const Family kFamilies[] = {
      {"flashmark_throughput_bytes_per_second", "gauge", "",
       "bytes per second in the last full interval, by direction"},
      {"flashmark_iops", "gauge", "",
       "IOs per second in the last full interval"},
      {"flashmark_latency_seconds", "gauge", "seconds",
       "latency percentiles of the last full interval (reads and writes)"},
      {"flashmark_bytes", "counter", "bytes",
       "bytes transferred since the run started, by direction"},
      {"flashmark_ios", "counter", "", "IOs completed since the run started"},
      {"flashmark_errors", "counter", "", "IO errors since the run started"},
      {"flashmark_intervals", "counter", "", "intervals sampled so far"},
      {"flashmark_steady_state", "gauge", "",
       "1 when the SNIA steady state is reached on the headline window"},
      {"flashmark_running", "gauge", "", "1 while the run goes on"},
      {"flashmark_elapsed_seconds", "gauge", "seconds",
       "time since the run started, at its last interval"},
  };
  std::string out;
  for (const Family& family : kFamilies) {
    out += fmt::format("# TYPE {} {}\n", family.name, family.type);
    if (*family.unit)
      out += fmt::format("# UNIT {} {}\n", family.name, family.unit);
    out += fmt::format("# HELP {} {}\n", family.name, family.help);
    const std::string name = family.name;
    for (size_t k = 0; k < snapshot.runs.size(); ++k) {
      const ReportRun& report_run = snapshot.runs[k];
      const RunResult& run = report_run.stored.run;
      const std::string labels = Labels(report_run);
      const IntervalSample* last = LastFull(run);
      const auto line = [&](const std::string& extra, double value) {
        out += fmt::format("{}{{{}{}}} {}\n", name, labels, extra, value);
      };
      DirectionTotals read, write;
      uint64_t errors = 0;
      for (const IntervalSample& sample : run.intervals) {
        read.ios += sample.read.ios;
        read.bytes += sample.read.bytes;
        write.ios += sample.write.ios;
        write.bytes += sample.write.bytes;
        errors += sample.errors;
      }
      if (name == "flashmark_throughput_bytes_per_second" && last) {
        line(",direction=\"read\"", last->read.bytes / last->seconds());
        line(",direction=\"write\"", last->write.bytes / last->seconds());
      } else if (name == "flashmark_iops" && last) {
        line("", last->Iops());
      } else if (name == "flashmark_latency_seconds" && last) {
        LatencyHistogram both = last->read_latency;
        both.Merge(last->write_latency);
        if (both.empty()) continue;
        for (const auto& [text, q] :
             {std::pair{"0.5", 0.5}, {"0.99", 0.99}, {"0.999", 0.999}}) {
          line(fmt::format(",quantile=\"{}\"", text), both.Quantile(q) / 1e9);
        }
      } else if (name == "flashmark_bytes") {
        out += fmt::format("{}_total{{{},direction=\"read\"}} {}\n", name,
                           labels, read.bytes);
        out += fmt::format("{}_total{{{},direction=\"write\"}} {}\n", name,
                           labels, write.bytes);
      } else if (name == "flashmark_ios") {
        out += fmt::format("{}_total{{{}}} {}\n", name, labels,
                           read.ios + write.ios);
      } else if (name == "flashmark_errors") {
        out += fmt::format("{}_total{{{}}} {}\n", name, labels, errors);
      } else if (name == "flashmark_intervals") {
        out += fmt::format("{}_total{{{}}} {}\n", name, labels,
                           run.intervals.size());
      } else if (name == "flashmark_steady_state") {
        line("", report_run.analysis.snia.reached ? 1 : 0);
      } else if (name == "flashmark_running") {
        line("", k < snapshot.states.size() && snapshot.states[k].running);
      } else if (name == "flashmark_elapsed_seconds") {
        line("", k < snapshot.states.size() ? snapshot.states[k].elapsed_seconds
                                            : 0.0);
      }
    }
  }
  out += "# EOF\n";
  return out;
}

}  // namespace flashmark
