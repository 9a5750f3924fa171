#include "campaign/pts_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

#include "campaign/pts_report_parts.h"
#include "campaign/round_verdict.h"
#include "common/local_time.h"
#include "common/units.h"
#include "config/campaign_env.h"
#include "config/pts_plan.h"
#include "model/latency_histogram.h"
#include "report/console_reporter.h"
#include "report/svg_chart.h"
#include "store/campaign_store.h"
#include "store/run_store.h"

namespace flashmark {
namespace {

using nlohmann::json;
using namespace pts_report;  // NOLINT(google-build-using-namespace)

// The figure a test's tables and plots show for a cell's run.
struct Figure {
  std::string label;  // "IOPS"
  RoundMetric metric;
};
Figure FigureOf(PtsTest test) {
  switch (test) {
    case PtsTest::kThroughput:
    case PtsTest::kXsr:
      return {"MiB/s", RoundMetric::kMibs};
    case PtsTest::kLatency:
      return {"mean latency (µs)", RoundMetric::kLatency};
    default:
      return {"IOPS", RoundMetric::kIops};
  }
}

// The steady state the segment was planned with (the plan is the one
// source of it: the same text `flashmark pts` ran).
std::optional<RoundSteadyState> PlannedSteadyState(PtsTest test,
                                                   const std::string& name) {
  PtsSettings settings;
  settings.test = test;
  settings.device = "/dev/pts-report";
  settings.capacity = 1ull << 40;
  auto segments = PlanPts(settings);
  if (!segments.ok()) return std::nullopt;
  for (const PtsSegment& segment : *segments) {
    if (segment.name != name) continue;
    auto campaign = LoadCampaignText(segment.toml, segment.name + ".toml",
                                     ProcessEnvironment());
    if (campaign.ok()) return campaign->round_steady_state;
  }
  return std::nullopt;
}

// What the first cell's reset steps did, in words, and whether its purge
// was a verified secure erase.
std::pair<std::string, bool> PurgeText(const StoredCell& first) {
  for (const json& step : first.reset) {
    if (step.value("step", "") != "secure-erase") continue;
    const std::string method = step.value("method", "");
    const std::string note = step.value("note", "");
    const bool verified =
        note.empty() && !method.empty() && method != "blkdiscard";
    return {method + (note.empty() ? "" : " (" + note + ")") +
                (verified ? ""
                          : "; not verified: the device is not called "
                            "fresh out of box"),
            verified};
  }
  return {"none recorded", false};
}

// The write-cache step's outcome: the cache as the kernel reported it
// afterwards, and how it was set or why it was not.
std::string WriteCacheText(const StoredCell& first, const TargetInfo& target) {
  for (const json& step : first.reset) {
    if (step.value("step", "") != "write-cache") continue;
    const std::string state = step.value("state", "");
    const std::string note = step.value("note", "");
    return (state.empty() ? std::string("unknown") : state) + "; " +
           (note.empty() ? "set by " + step.value("method", "?") : note);
  }
  return target.write_cache.empty()
             ? "unknown"
             : target.write_cache + " (as found: not set by the test)";
}

// The convergence plot, the window's figures and the measurement table.
std::string RoundsSections(PtsTest test, const RoundSteadyState& steady,
                           const RoundVerdict& verdict,
                           const std::vector<Cell>& cells, int per_round,
                           const std::vector<std::string>& axes) {
  std::string html;
  const Figure figure = FigureOf(test);
  XyChart convergence;
  convergence.title =
      "Steady-state convergence: " + RoundMetricLabel(steady.metric) +
      " of the tracked cell";
  convergence.x_label = "round";
  convergence.y_label = RoundMetricLabel(steady.metric);
  SvgSeries tracked{"tracked cell", {}, {}, true, std::nullopt};
  for (size_t r = 0; r < verdict.values.size(); ++r) {
    if (!verdict.values[r]) continue;
    tracked.x.push_back(static_cast<double>(r + 1));
    tracked.y.push_back(*verdict.values[r]);
  }
  convergence.series.push_back(tracked);
  size_t first = 0, last = 0;
  if (verdict.last_window) {
    const SniaWindow& w = *verdict.last_window;
    first = w.first_round;
    last = w.last_round;
    SvgSeries fit{"fitted line", {}, {}, true, std::nullopt};
    for (size_t r = first; r <= last; ++r) {
      fit.x.push_back(static_cast<double>(r + 1));
      fit.y.push_back(w.intercept + w.slope * static_cast<double>(r - first));
    }
    convergence.series.push_back(fit);
    SvgSeries high{"average + 10 %", {}, {}, true, std::nullopt};
    SvgSeries low{"average - 10 %", {}, {}, true, std::nullopt};
    for (size_t r : {first, last}) {
      high.x.push_back(static_cast<double>(r + 1));
      high.y.push_back(w.average * 1.1);
      low.x.push_back(static_cast<double>(r + 1));
      low.y.push_back(w.average * 0.9);
    }
    convergence.series.push_back(high);
    convergence.series.push_back(low);
    convergence.reference = {w.average, "window average"};
    convergence.markers.push_back({static_cast<double>(first + 1), "window"});
  }
  html += "<h2>Steady state</h2>\n" + ChartBlock(convergence, "convergence");
  if (verdict.last_window) {
    const SniaWindow& w = *verdict.last_window;
    html += Table({"window", "verdict", "average", "data excursion", "allowed",
                   "slope excursion", "allowed", "slope per round"},
                  {{fmt::format("rounds {}-{}", first + 1, last + 1),
                    w.steady() ? "steady" : "not steady", Number(w.average),
                    fmt::format("{} ({:.1f} %)", Number(w.data_excursion),
                                w.data_excursion_percent),
                    fmt::format("{:.0f} %", w.allowed_data_excursion_percent),
                    fmt::format("{} ({:.1f} %)", Number(w.slope_excursion),
                                w.slope_excursion_percent),
                    fmt::format("{:.0f} %", w.allowed_slope_excursion_percent),
                    Number(w.slope)}},
                  "window");
  } else {
    html += fmt::format(
        "<p class=\"note\">{} rounds ran; a window needs {}: no verdict.</p>\n",
        verdict.values.size(), steady.window);
  }

  // Every cell's value averaged over the window's rounds.
  std::vector<std::vector<double>> sums(per_round);
  for (const Cell& cell : cells) {
    if (!InWindow(cell, verdict)) continue;
    sums[cell.position].push_back(RoundMetricValue(figure.metric, *cell.run));
  }
  std::vector<double> average(per_round, 0);
  for (int p = 0; p < per_round; ++p) {
    for (double v : sums[p]) average[p] += v / double(sums[p].size());
  }
  html += fmt::format("<h2>Measurement: {} over the window's rounds</h2>\n",
                      Escape(figure.label));
  if (axes.size() == 2) {
    // Rows: the first axis; columns: the second; plus the 2D plot.
    std::vector<std::string> rows_values, columns;
    for (int p = 0; p < per_round; ++p) {
      const StoredCell& stored = *cells[p].stored;
      const std::string row = Parameter(stored, axes[0]);
      const std::string column = Parameter(stored, axes[1]);
      if (std::find(rows_values.begin(), rows_values.end(), row) ==
          rows_values.end())
        rows_values.push_back(row);
      if (std::find(columns.begin(), columns.end(), column) == columns.end())
        columns.push_back(column);
    }
    std::vector<std::string> header{axes[0] + " \\ " + axes[1]};
    header.insert(header.end(), columns.begin(), columns.end());
    std::vector<std::vector<std::string>> rows;
    XyChart plot;
    plot.title = fmt::format("{} by {} (one line per {})", figure.label,
                             axes[1], axes[0]);
    plot.x_label = axes[1];
    plot.x_categories = columns;  // the block sizes (4k, 8k ...) as named
    plot.y_label = figure.label;
    double peak = 0;
    for (double v : average) peak = std::max(peak, v);
    std::string heat =
        "<table class=\"heat\"><tr><th>" + Escape(header[0]) + "</th>";
    for (const std::string& column : columns)
      heat += "<th>" + Escape(column) + "</th>";
    heat += "</tr>";
    for (size_t r = 0; r < rows_values.size(); ++r) {
      std::vector<std::string> row{rows_values[r]};
      SvgSeries series{
          axes[0] + "=" + rows_values[r], {}, {}, true, std::nullopt};
      heat += "<tr><th>" + Escape(rows_values[r]) + "</th>";
      for (size_t c = 0; c < columns.size(); ++c) {
        const int p = int(r * columns.size() + c);
        const bool known = p < per_round && !sums[p].empty();
        row.push_back(known ? Number(average[p]) : "-");
        if (known) {  // at its category: x = column + 1
          series.x.push_back(double(c + 1));
          series.y.push_back(average[p]);
        }
        const double share = known && peak > 0 ? average[p] / peak : 0;
        heat += fmt::format(
            "<td style=\"background:rgba(44,110,200,{:.2f})\">{}</td>",
            0.08 + 0.82 * share, known ? Number(average[p]) : "-");
      }
      heat += "</tr>";
      rows.push_back(std::move(row));
      plot.series.push_back(std::move(series));
    }
    heat += "</table>\n";
    html += Table(header, rows, "measurement");
    html += ChartBlock(plot, "measurement-plot");
    if (test == PtsTest::kIops) {
      html += "<h2>IOPS surface: block size x R/W mix</h2>\n" + heat;
    }
  } else {
    std::vector<std::vector<std::string>> rows;
    XyChart plot;
    plot.title = figure.label + " per cell";
    plot.x_label = "cell of the round";
    plot.y_label = figure.label;
    SvgSeries series{figure.label, {}, {}, true, std::nullopt};
    for (int p = 0; p < per_round; ++p) {
      rows.push_back({ParametersText(cells[p]),
                      sums[p].empty() ? "-" : Number(average[p])});
      if (!sums[p].empty()) {
        series.x.push_back(double(p + 1));
        series.y.push_back(average[p]);
      }
    }
    plot.series.push_back(series);
    html += Table({"cell", figure.label}, rows, "measurement");
    html += ChartBlock(plot, "measurement-plot");
  }
  return html;
}

// Latency: mean, max and 99.999 % per cell over the window's rounds.
std::string LatencyTable(const std::vector<Cell>& cells, int per_round,
                         const RoundVerdict& verdict) {
  if (!verdict.last_window) return "";
  std::vector<LatencyHistogram> merged(per_round);
  for (const Cell& cell : cells) {
    if (!InWindow(cell, verdict)) continue;
    for (const IntervalSample& interval : cell.run->intervals) {
      merged[cell.position].Merge(interval.read_latency);
      merged[cell.position].Merge(interval.write_latency);
    }
  }
  std::vector<std::vector<std::string>> rows;
  for (int p = 0; p < per_round; ++p) {
    const LatencyHistogram& h = merged[p];
    if (h.count() == 0) continue;
    rows.push_back({ParametersText(cells[p]), FormatLatency(h.Mean()),
                    FormatLatency(h.Max()), FormatLatency(h.Quantile(0.99999)),
                    FormatCount(double(h.count()))});
  }
  return "<h2>Response times over the window's rounds</h2>\n" +
         Table({"cell", "mean", "max", "99.999 %", "IOs"}, rows, "latency");
}

// WSAT, HIR, XSR: the figure per interval over every cell, one after the
// other; WSAT also against the data written.
std::string SeriesSections(PtsTest test, const std::vector<Cell>& cells) {
  const Figure figure = FigureOf(test);
  XyChart over_time;
  over_time.title = figure.label + " per interval over the test";
  over_time.x_label = "time (s)";
  over_time.y_label = figure.label;
  XyChart over_bytes;
  over_bytes.title = "IOPS against the data written";
  over_bytes.x_label = "written";
  over_bytes.y_label = "IOPS";
  over_bytes.bytes_x = true;
  SvgSeries time_series{figure.label, {}, {}, true, std::nullopt};
  SvgSeries byte_series{"IOPS", {}, {}, true, std::nullopt};
  double offset = 0;
  double written = 0;
  std::vector<std::vector<std::string>> rows;
  for (const Cell& cell : cells) {
    if (cell.run == nullptr) continue;
    const RunResult& run = *cell.run;
    // Where each segment starts, by its number in the segments table.
    const std::string number = std::to_string(rows.size() + 1);
    if (offset > 0) over_time.markers.push_back({offset, "#" + number});
    for (const IntervalSample& interval : run.intervals) {
      if (interval.partial) continue;
      const double value = figure.metric == RoundMetric::kMibs
                               ? interval.ReadMiBs() + interval.WriteMiBs()
                               : interval.Iops();
      time_series.x.push_back(offset + interval.end_ns / 1e9);
      time_series.y.push_back(value);
      written += double(interval.write.bytes);
      byte_series.x.push_back(written);
      byte_series.y.push_back(interval.Iops());
    }
    rows.push_back(
        {number, ParametersText(cell),
         FormatDuration(std::chrono::nanoseconds(
             static_cast<int64_t>(run.summary.elapsed_seconds * 1e9))),
         Number(RoundMetricValue(figure.metric, run)),
         FormatBytes(run.summary.write.bytes),
         FormatLatency(run.summary.latency.mean),
         FormatLatency(run.summary.latency.max)});
    offset += run.summary.elapsed_seconds;
  }
  over_time.series.push_back(time_series);
  std::string html =
      "<h2>" + Escape(figure.label) + " over time</h2>\n" +
      ChartBlock(over_time, "over-time") +
      "<p class=\"note\">Dashed lines: where each segment starts, numbered "
      "as in the segments table.</p>\n";
  if (test == PtsTest::kWsat) {
    over_bytes.series.push_back(byte_series);
    html += "<h2>IOPS against the data written</h2>\n" +
            ChartBlock(over_bytes, "over-written");
  }
  html += "<h2>Segments</h2>\n" +
          Table({"#", "cell", "time", figure.label + " (whole cell)", "written",
                 "mean latency", "max latency"},
                rows, "segments");
  return html;
}

std::string HeaderBlock(PtsTest test, const StoredCampaign& campaign,
                        const std::vector<Cell>& cells, int rounds,
                        const RoundVerdict& verdict, bool has_rounds) {
  const RunResult* run = nullptr;
  for (const Cell& cell : cells) {
    if (cell.run != nullptr) {
      run = cell.run;
      break;
    }
  }
  const StoredCell& first = *cells.front().stored;
  const auto [purge, verified] = PurgeText(first);
  std::vector<std::vector<std::string>> rows;
  const auto add = [&rows](std::string key, std::string value) {
    rows.push_back({std::move(key), std::move(value)});
  };
  add("test", std::string(PtsTestTitle(test)));
  add("specification",
      "SNIA Solid State Storage Performance Test "
      "Specification v2.0.2");
  // The scale and profile as `flashmark pts` was given them.
  const std::string& line = campaign.command_line;
  const size_t at = line.find("--scale");
  const bool scaled = at != std::string::npos &&
                      std::strtod(line.c_str() + at + 8, nullptr) < 1.0;
  add("compliance", scaled ? "scaled (--scale): a quick check, not a "
                             "compliant run"
                           : "durations and amounts as specified");
  add("profile", line.find("client") != std::string::npos &&
                         line.find("--profile") != std::string::npos
                     ? "client (write cache on, active range 75 %)"
                     : "enterprise (write cache off where the device "
                       "allows it, active range 100 %)");
  if (run != nullptr && !run->environment.targets.empty()) {
    const TargetInfo& t = run->environment.targets.front();
    add("device", t.path + (t.model.empty() ? "" : ", " + t.model));
    add("serial / firmware", (t.serial.empty() ? "-" : t.serial) + " / " +
                                 (t.firmware.empty() ? "-" : t.firmware));
    add("capacity", FormatBytes(t.capacity_bytes));
    add("interface", t.transport.empty() ? "-" : t.transport);
    add("write cache", WriteCacheText(first, t));
    const Environment& e = run->environment;
    add("test platform", fmt::format("{}, {}, {}, {} memory", e.host, e.kernel,
                                     e.cpu_model, FormatBytes(e.memory_bytes)));
    add("test software", "flashmark " + run->tool_version);
    add("active range",
        fmt::format("{} ({} bytes)", FormatBytes(t.bytes), t.bytes));
    add("TC / QD",
        fmt::format("{} / {}", run->spec.threads, run->spec.iodepth));
    add("data pattern", WriteDataText(run->spec.data, run->spec.shared_buffer));
  }
  add("purge", purge);
  add("fresh out of box", verified ? "yes (verified purge)" : "not claimed");
  // The preconditioning steps as planned: "seqwr 128k, 2147483648 bytes".
  std::string steps;
  const json& planned = first.plan.is_object() ? first.plan["reset"] : json();
  for (const json& step : planned.is_array() ? planned : json::array()) {
    if (step.value("step", "") != "precondition") continue;
    const json& w = step.contains("workload") ? step["workload"] : json();
    if (!w.is_object()) continue;
    const auto text = [&w](const char* key) {
      return w.contains(key) && w[key].is_string() ? w[key].get<std::string>()
                                                   : std::string();
    };
    std::string words = text("mode") + " " + text("bs");
    if (!text("distribution").empty()) words += " " + text("distribution");
    words += fmt::format(" TC{}/QD{}", text("threads"), text("iodepth"));
    if (!text("bytes").empty()) {
      words += ", " + FormatBytes(std::stoull(text("bytes")));
    } else if (!text("time").empty()) {
      words += ", " + text("time");
    } else {
      words += ", until steady (at most " + text("max-time") + ")";
    }
    steps += (steps.empty() ? "" : "; ") + words;
  }
  add("preconditioning", steps.empty() ? "none" : steps);
  if (has_rounds) {
    add("rounds",
        fmt::format("{} run", rounds == 1 ? "1 round"
                                          : fmt::format("{} rounds", rounds)));
    add("steady state",
        verdict.last_window
            ? fmt::format("{} in rounds {}-{}",
                          verdict.steady() ? "reached" : "not reached",
                          verdict.last_window->first_round + 1,
                          verdict.last_window->last_round + 1)
            : "no window (too few rounds)");
  }
  add("test run",
      LocalTimeText(campaign.start_unix_ns, "%Y-%m-%d %H:%M") + " .. " +
          (campaign.end_unix_ns
               ? LocalTimeText(campaign.end_unix_ns, "%Y-%m-%d %H:%M")
               : std::string("not finished")));
  add("command", campaign.command_line);
  return Table({"field", "value"}, rows, "header-block");
}

constexpr const char* kStyle =
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;"
    "color:#1b1b1b}table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;"
    "font-size:14px}th{background:#f1f3f6}.note{color:#8a4b00}"
    "figure.chart{margin:1em 0}h1{font-size:24px}h2{font-size:19px;"
    "margin-top:1.6em}";

}  // namespace

Result<std::string> RenderPtsReport(const std::string& database,
                                    int64_t campaign_id) {
  auto store = CampaignStore::OpenForReading(database);
  if (!store.ok()) return store.error();
  auto campaign = store->Find(campaign_id);
  if (!campaign.ok()) return campaign.error();
  const std::string& identity = campaign->file_path;
  const size_t end = identity.find(':', 4);
  const std::string segment =
      identity.starts_with("pts:") && end != std::string::npos
          ? identity.substr(4, end - 4)
          : "";
  const std::optional<PtsTest> test = PtsTestOfSegment(segment);
  if (!test) {
    return UsageError(
        fmt::format("campaign {} is not a PTS test: {}", campaign_id, identity),
        "`flashmark list --campaigns` lists them; `flashmark pts` makes "
        "them, `flashmark report --campaign ID` draws any campaign");
  }
  auto stored = store->Cells(campaign_id);
  if (!stored.ok()) return stored.error();
  if (stored->empty()) {
    return UsageError(fmt::format("campaign {} has no cells", campaign_id));
  }
  auto runs = RunStore::OpenForReading(database);
  if (!runs.ok()) return runs.error();

  // A round ends where the first cell's parameters come again.
  int per_round = static_cast<int>(stored->size());
  for (size_t i = 1; i < stored->size(); ++i) {
    if ((*stored)[i].parameters == stored->front().parameters) {
      per_round = static_cast<int>(i);
      break;
    }
  }
  std::vector<CampaignCell> plan_cells;
  for (const StoredCell& cell : *stored) {
    CampaignCell plan_cell;
    plan_cell.index = cell.index;
    plan_cell.parameters = cell.parameters;
    plan_cells.push_back(std::move(plan_cell));
  }
  std::vector<RunResult> loaded;
  loaded.reserve(stored->size());
  std::vector<Cell> cells;
  int rounds = 0;
  for (size_t i = 0; i < stored->size(); ++i) {
    const StoredCell& cell = (*stored)[i];
    Cell entry{&cell, &plan_cells[i], nullptr, int(i) / per_round,
               int(i) % per_round};
    if (cell.status == CellStatus::kOk && cell.run_id) {
      // Histograms where a page draws them.
      auto run = runs->LoadRun(
          *cell.run_id, *test == PtsTest::kLatency || *test == PtsTest::kDirth);
      if (!run.ok()) return run.error();
      loaded.push_back(std::move(run->run));
      entry.run = &loaded.back();
      rounds = std::max(rounds, entry.round + 1);
    }
    cells.push_back(entry);
  }
  if (rounds == 0) {
    return UsageError(
        fmt::format("campaign {} has no finished cell to report", campaign_id),
        "continue it with `flashmark pts ... --resume`");
  }

  CampaignSpec planned;
  planned.round_steady_state = PlannedSteadyState(*test, segment);
  auto verdict = EvaluateRounds(planned, plan_cells, *stored, *runs);
  if (!verdict.ok()) return verdict.error();
  std::vector<std::string> axes;
  for (const auto& [name, value] : stored->front().parameters) {
    axes.push_back(name);
  }

  const bool has_rounds = planned.round_steady_state.has_value();
  std::string body = fmt::format(
      "<h1>{} test: report page</h1>\n<p>SNIA SSS TWG · Solid State Storage "
      "Performance Test Specification v2.0.2 · flashmark campaign {} "
      "({})</p>\n",
      Escape(std::string(PtsTestTitle(*test))), campaign_id, Escape(segment));
  body += HeaderBlock(*test, *campaign, cells, rounds, *verdict, has_rounds);
  if (has_rounds) {
    body += RoundsSections(*test, *planned.round_steady_state, *verdict, cells,
                           per_round, axes);
    if (*test == PtsTest::kLatency) {
      body += LatencyTable(cells, per_round, *verdict);
    }
    if (*test == PtsTest::kDirth) {
      body += DirthSections(cells, per_round, *verdict);
    }
  } else {
    body += SeriesSections(*test, cells);
  }
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
      "'none'; style-src 'unsafe-inline'; img-src data:\">"
      "<title>{} — SNIA PTS report</title><style>{}</style></head>\n"
      "<body data-pts-test=\"{}\">\n{}</body></html>\n",
      Escape(std::string(PtsTestTitle(*test))), kStyle, PtsTestName(*test),
      body);
}

}  // namespace flashmark
