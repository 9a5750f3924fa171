#include "report/report_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "analysis/box_plot.h"
#include "analysis/compare.h"
#include "analysis/comparison_unit.h"
#include "analysis/quantiles.h"
#include "analysis/run_summary.h"
#include "analysis/telemetry_summary.h"
#include "common/units.h"
#include "common/version.h"
#include "config/run_options.h"
#include "model/histogram_buckets.h"
#include "report/cluster_report_data.h"
#include "report/console_reporter.h"
#include "report/downsample.h"
#include "report/group_key.h"
#include "report/headline_text.h"
#include "report/replay_report_json.h"
#include "report/replay_text.h"
#include "report/reproduce_text.h"
#include "report/run_tables.h"
#include "report/run_views_json.h"
#include "report/telemetry_text.h"
#include "report/throttle_text.h"

namespace flashmark {
namespace {

using nlohmann::json;

// Where a group's values come from: the same windows as every headline.
constexpr const char* kGroupRule =
    "each group pools the per-interval values of its runs' headline windows "
    "(the final regime after its warm-up; one run: its headline median)";

double Ms(double ns) { return ns / 1e6; }
json LatencyMs(const LatencySummary& s, double ns) {
  return s.count == 0 ? json() : json(Ms(ns));
}

json LatencyCdf(const LatencyHistogram& histogram, size_t max_points) {
  json ms = json::array(), fraction = json::array();
  if (histogram.empty()) return {{"ms", ms}, {"fraction", fraction}};
  const auto& buckets = histogram.buckets();
  const size_t step = std::max<size_t>(1, buckets.size() / max_points);
  uint64_t seen = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    seen += buckets[i].count;
    if (i % step != 0 && i + 1 != buckets.size()) continue;
    ms.push_back(
        Ms(static_cast<double>(buckets::UpperBound(buckets[i].index))));
    fraction.push_back(static_cast<double>(seen) / histogram.count());
  }
  return {{"ms", ms}, {"fraction", fraction}};
}

json RunJson(const ReportRun& report_run, size_t max_points) {
  const StoredRun& stored = report_run.stored;
  const RunAnalysis& a = report_run.analysis;
  const MetricInfo info = DescribeMetric(a.metric);
  json tags = json::object();
  for (const auto& [key, value] : stored.labels.tags) tags[key] = value;

  std::vector<size_t> interval_of;  // series value -> run.intervals index
  const auto iops_all = MetricSeries(stored.run, Metric::kIops, &interval_of);
  const auto kept = MinMaxDownsample(a.values, max_points);
  json t = json::array(), value = json::array(), iops = json::array(),
       p50 = json::array(), p95 = json::array(), p99 = json::array(),
       p999 = json::array(), device_busy = json::array(),
       device_queue = json::array();
  const auto ms_or_null = [](const std::vector<double>& ns, size_t i) {
    return i >= ns.size() || std::isnan(ns[i]) ? json() : json(Ms(ns[i]));
  };
  bool any_device = false;
  json split = json::array();  // per kept interval: its p50's parts (ms)
  const auto& split_p50 = report_run.split_p50_ns;
  for (size_t i : kept) {
    // At the interval's measured end, as the console prints it: the
    // interval 0..1 s is the point at 1 s.
    t.push_back(a.times[i]);
    value.push_back(a.values[i] / info.scale);
    iops.push_back(i < iops_all.size() ? iops_all[i] : 0.0);
    p50.push_back(ms_or_null(a.p50_ns, i));
    p95.push_back(ms_or_null(a.p95_ns, i));
    p99.push_back(ms_or_null(a.p99_ns, i));
    p999.push_back(ms_or_null(a.p999_ns, i));
    // The busiest device the targets sit on, in this interval.
    const IntervalSample* sample = i < interval_of.size()
                                       ? &stored.run.intervals[interval_of[i]]
                                       : nullptr;
    const DiskActivity* disk = sample ? sample->telemetry.Busiest() : nullptr;
    any_device |= disk != nullptr;
    device_busy.push_back(
        disk ? json(100 * disk->Utilisation(sample->seconds())) : json());
    device_queue.push_back(disk ? json(disk->QueueSize(sample->seconds()))
                                : json());
    if (!split_p50.empty()) {
      const size_t at = i < interval_of.size() ? interval_of[i] : SIZE_MAX;
      json parts = json::array();
      for (size_t part = 0; part < 4; ++part) {
        const double ns = at < split_p50.size() ? split_p50[at][part] : NAN;
        parts.push_back(std::isnan(ns) ? json() : json(Ms(ns)));
      }
      split.push_back(std::move(parts));
    }
  }
  // The run's figure is its headline's (the rule every command uses),
  // IOPS over the same window.
  const WindowStats& w = a.headline.figure;
  const LatencySummary& l = a.latency.both;
  const SeriesSummary iops_window =
      HeadlineWindowSummary(stored.run, Metric::kIops, a.headline);
  json regimes = json::array();
  for (size_t r = 0; r < a.regimes.segments.size(); ++r) {
    const Regime& regime = a.regimes.segments[r];
    regimes.push_back(
        {{"start", regime.start_seconds},
         {"end", regime.end_seconds},
         {"median", regime.median / info.scale},
         {"p25", regime.p25 / info.scale},
         {"p75", regime.p75 / info.scale},
         {"latency_p99_ms",  // null without histograms
          LatencyMs(a.regime_latency[r].both, a.regime_latency[r].both.p99)}});
  }
  json changes = json::array();
  for (const auto& change : a.regimes.changes) {
    ChangePoint scaled = change;
    scaled.median_before /= info.scale;
    scaled.median_after /= info.scale;
    changes.push_back({{"t", change.time_seconds},
                       {"text", FormatChange(scaled, info.unit)}});
  }
  const SniaWindow& sw = a.snia.window;
  return {
      {"id", stored.id},
      {"name", RunName(stored)},
      {"label", stored.labels.label},
      {"tags", tags},
      {"status", RunStatusName(stored.run.status)},
      {"workload", DescribeWorkload(stored.run.spec)},
      {"command_line", stored.run.command_line},
      {"reproduce", ReproduceText(stored)},
      {"config", ConfigTable(stored)},
      {"environment", EnvironmentTable(stored)},
      {"summary",
       {{"metric", info.title},
        {"unit", info.unit},
        {"median", w.median / info.scale},
        {"ci_low", w.median_ci.low / info.scale},
        {"ci_high", w.median_ci.high / info.scale},
        {"p25", w.p25 / info.scale},
        {"p75", w.p75 / info.scale},
        {"p5", w.p5 / info.scale},
        {"p95", w.p95 / info.scale},
        {"min", w.min / info.scale},
        {"max", w.max / info.scale},
        {"mean", w.mean / info.scale},
        {"cv_percent", w.cv * 100},
        {"intervals", w.count},
        {"iops_median", iops_window.median},
        {"latency_ms",  // null without histograms (imported sysbench runs)
         {{"p50", LatencyMs(l, l.p50)},
          {"p95", LatencyMs(l, l.p95)},
          {"p99", LatencyMs(l, l.p99)},
          {"p99.9", LatencyMs(l, l.p999)},
          {"max", LatencyMs(l, l.max)}}}}},
      {"headline", HeadlineJson(a.headline, info)},
      {"throttle", RunThrottleJson(stored.run)},
      {"steady_state",
       {{"reached", a.snia.reached},
        {"round_seconds", a.snia.round_seconds},
        {"window_start", sw.start_seconds},
        {"window_end", sw.end_seconds},
        {"average", sw.average / info.scale},
        {"data_excursion_percent", sw.data_excursion_percent},
        {"rounds_evaluated", a.snia.rounds_evaluated},
        {"allowed_data_percent", sw.round_values.empty()
                                     ? SniaOptions().data_excursion_limit * 100
                                     : sw.allowed_data_excursion_percent},
        {"slope_excursion_percent", sw.slope_excursion_percent},
        {"allowed_slope_percent",
         sw.round_values.empty() ? SniaOptions().slope_excursion_limit * 100
                                 : sw.allowed_slope_excursion_percent},
        // As analyze says it: an estimate only where MSER-5 was judged.
        {"mser_seconds", a.mser.valid && a.mser.length.enough
                             ? json(a.mser.warmup_end_seconds)
                             : json()},
        {"mser_not_judged",
         a.mser.length.enough ? json() : json(a.mser.length.text)},
        {"warmup_end", a.warmup_end_seconds},
        // fixed (--warmup 6s: all before it is warm-up), auto or none
        {"warmup_mode", a.warmup_mode == WarmupMode::kNone    ? "none"
                        : a.warmup_mode == WarmupMode::kFixed ? "fixed"
                                                              : "auto"},
        {"warmup_source", a.warmup_source}}},
      {"regimes", regimes},
      {"changes", changes},
      {"series",
       {{"t", t},
        {"value", value},
        {"iops", iops},
        {"p50_ms", p50},
        {"p95_ms", p95},
        {"p99_ms", p99},
        {"p999_ms", p999},
        {"device_busy_percent", any_device ? device_busy : json()},
        {"device_queue", any_device ? device_queue : json()},
        {"device", any_device ? json(TargetDevicesText(stored.run)) : json()},
        // --trace-latency: [flashmark, queue, device, completion] p50 (ms)
        {"split_p50_ms", split_p50.empty() ? json() : split},
        {"downsampled", kept.size() < a.values.size()},
        {"points", a.values.size()}}},
      {"latency_cdf", LatencyCdf(a.window_histogram, 400)},
      {"latency_spectrum", SpectrumJson(a.window_histogram)},
      {"latency_heatmap", HeatmapJson(a.heatmap)},
      {"telemetry", TelemetryJson(SummarizeTelemetry(stored.run))},
      {"replay", ReplayReportJson(stored.run)}};
}

// A group's key as a number: plain numbers, sizes ("50G") or durations.
std::optional<double> NumericValue(const std::string& text) {
  char* end = nullptr;
  const double plain = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && *end == '\0') return plain;
  // Sizes as GroupValue shows them ("512 MiB") or as tagged ("512M").
  std::string compact = text;
  std::erase(compact, ' ');
  if (auto size = ParseSize(compact); size.ok()) {
    return static_cast<double>(*size);
  }
  return std::nullopt;
}

struct Grouping {
  std::string by;
  std::vector<std::string> names;         // in first-seen order
  std::vector<std::string> values;        // the --by value of each group
  std::vector<std::string> tools;         // each group's; "" when one tool
  std::vector<std::vector<size_t>> runs;  // indexes into input.runs
};

// --by NAME (a tag, else a run parameter: group_key.h), or the one
// parameter that differs between the runs. Runs of different tools are
// never pooled: each tool gets its own group at each value.
Result<std::optional<Grouping>> GroupRuns(const ReportInput& input) {
  std::vector<std::string> keys;
  std::string by;
  if (input.by) {
    by = *input.by;
    for (const auto& run : input.runs) {
      std::optional<std::string> value = GroupValue(run.stored, by);
      if (!value) {
        return UsageError(
            fmt::format("run {} has no tag \"{}\", and no run parameter is "
                        "called so",
                        run.stored.id, by),
            fmt::format("tag runs with `flashmark tag {} {}=VALUE`, or group "
                        "by a parameter: {}",
                        run.stored.id, by, GroupParameterNames()));
      }
      keys.push_back(*value);
    }
  } else {
    if (input.runs.size() < 2) return std::optional<Grouping>();
    int varying = 0;
    for (const char* name : {"threads", "iodepth", "bs", "size", "file-num"}) {
      std::vector<std::string> values;
      for (const auto& run : input.runs) {
        values.push_back(*GroupValue(run.stored, name));
      }
      if (std::count(values.begin(), values.end(), values.front()) !=
          static_cast<long>(values.size())) {
        ++varying;
        by = name;
        keys = values;
      }
    }
    if (varying != 1) return std::optional<Grouping>();
  }
  std::vector<const StoredRun*> stored;
  for (const auto& run : input.runs) stored.push_back(&run.stored);
  const bool several_tools = SeveralTools(stored);
  Grouping grouping{by, {}, {}, {}, {}};
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string name = GroupName(keys[i], *stored[i], several_tools);
    auto found = std::find(grouping.names.begin(), grouping.names.end(), name);
    if (found == grouping.names.end()) {
      grouping.names.push_back(name);
      grouping.values.push_back(keys[i]);
      grouping.tools.push_back(several_tools ? RunTool(*stored[i]) : "");
      grouping.runs.emplace_back();
      found = grouping.names.end() - 1;
    }
    grouping.runs[found - grouping.names.begin()].push_back(i);
  }
  // Like with like: a group pools repeats of one workload, never runs
  // that differ in anything but the grouping key (sync and async cells of
  // a sweep grouped by device were drawn as one box).
  for (size_t g = 0; g < grouping.runs.size(); ++g) {
    std::vector<const StoredRun*> group;
    for (const size_t i : grouping.runs[g]) group.push_back(stored[i]);
    Status one = CheckOneWorkload(group, by, grouping.names[g]);
    if (!one.ok()) return one.error();
  }
  return std::optional<Grouping>(grouping);
}

// A Tukey box plot as the report's JSON draws it.
json BoxJson(const BoxPlot& box) {
  return {{"q1", box.q1},
          {"median", box.median},
          {"q3", box.q3},
          {"lower_whisker", box.lower_whisker},
          {"upper_whisker", box.upper_whisker},
          {"outliers", box.outliers},
          {"count", box.count}};
}

// The run's values over its headline window, in the metric's display unit.
std::vector<double> WindowValues(const ReportRun& run) {
  const RunAnalysis& a = run.analysis;
  const double scale = DescribeMetric(a.metric).scale;
  std::vector<double> values;
  const size_t end = std::min(a.headline.end_index, a.values.size());
  for (size_t i = a.headline.first_index; i < end; ++i) {
    values.push_back(a.values[i] / scale);
  }
  return values;
}

}  // namespace

std::string RunName(const StoredRun& stored) {
  if (!stored.labels.label.empty()) return stored.labels.label;
  return ClusterRunName(stored).value_or(fmt::format("run {}", stored.id));
}

Result<json> BuildReportData(const ReportInput& input) {
  if (input.runs.empty()) return UsageError("no runs to report");
  json runs = json::array();
  for (const auto& run : input.runs) {
    if (run.analysis.intervals == 0) {
      return UsageError(
          fmt::format("run {} has no full interval to draw", run.stored.id),
          "report runs that lasted at least one interval");
    }
    runs.push_back(RunJson(run, input.max_points));
  }
  // A cluster run's aggregate and ranks are not grouped by the threads
  // that differ between them, unless --by asks.
  const json cluster = ClusterReportJson(input.runs, kReportHeatmapColumns);
  auto grouping = cluster.is_null() || input.by
                      ? GroupRuns(input)
                      : Result<std::optional<Grouping>>(std::nullopt);
  if (!grouping.ok()) return grouping.error();

  std::vector<std::string> charts = {"timeseries", "latency_bands"};
  bool any_device = false;
  for (const json& run : runs) {
    any_device |= !run["series"]["device_busy_percent"].is_null();
  }
  if (any_device) charts.push_back("device_activity");
  // The write amplification over time, where SMART reads gave windows.
  const bool any_waf_windows = std::ranges::any_of(runs, [](const json& run) {
    const json& t = run["telemetry"];
    if (!t.is_object() || !t.contains("write_amplification")) return false;
    for (const json& disk : t["write_amplification"]["disks"]) {
      if (!disk["windows"].empty()) return true;
    }
    return false;
  });
  if (any_waf_windows) charts.push_back("write_amplification");
  if (std::ranges::any_of(input.runs, [](const ReportRun& run) {
        return !run.split_p50_ns.empty();
      })) {
    charts.push_back("latency_split");
  }
  // A timed replay's issue error over time (the fidelity series).
  if (std::ranges::any_of(runs, [](const json& run) {
        const json& replay = run["replay"];
        return replay.is_object() && replay["fidelity"].value("timed", false) &&
               !replay["t"].empty();
      })) {
    charts.push_back("replay_fidelity");
  }
  charts.insert(charts.end(), {"latency_heatmap", "iops_latency",
                               "latency_distribution", "latency_spectrum"});
  json notes = json::array();  // what the report leaves out, and why
  // Each warning once, with the runs it holds for (the ranks of a cluster
  // run share theirs).
  std::vector<std::pair<std::string, std::vector<int64_t>>> warnings;
  for (const auto& run : input.runs) {
    for (const std::string& warning : run.stored.run.environment.warnings) {
      auto same =
          std::find_if(warnings.begin(), warnings.end(),
                       [&](const auto& w) { return w.first == warning; });
      if (same == warnings.end()) {
        warnings.push_back({warning, {run.stored.id}});
      } else {
        same->second.push_back(run.stored.id);
      }
    }
  }
  for (const auto& [warning, ids] : warnings) {
    notes.push_back(fmt::format("run{} {}: {}", ids.size() == 1 ? "" : "s",
                                fmt::join(ids, ", "), warning));
  }
  // A replay that could not keep the trace's timing says so first.
  for (const auto& run : input.runs) {
    const auto& replay = run.stored.run.replay;
    if (!replay || ReplayHeadlineNote(*replay).empty()) continue;
    notes.push_back(fmt::format(
        "run {}: {}: p99 issue error {:.1f} us, late above {:.1f} us",
        run.stored.id, ReplayHeadlineNote(*replay),
        replay->fidelity.error_p99_ns / 1e3,
        replay->fidelity.late_threshold_ns / 1e3));
  }
  // A --detect-throttle run's bucket: its headline (report/throttle_text.h).
  for (const auto& run : input.runs) {
    if (run.analysis.throttle) {
      notes.push_back(fmt::format("run {}: throttle: {}", run.stored.id,
                                  ThrottleSentence(*run.analysis.throttle)));
    } else if (!run.analysis.throttle_error.empty()) {
      notes.push_back(fmt::format("run {}: throttle: none found: {}",
                                  run.stored.id, run.analysis.throttle_error));
    }
  }
  std::vector<std::string> without_latency;
  for (const auto& run : input.runs) {
    if (run.analysis.window_histogram.empty()) {
      const std::string& tool = run.stored.run.imported.tool;
      without_latency.push_back(
          fmt::format("run {}{}", run.stored.id,
                      tool.empty() ? "" : " (imported from " + tool + ")"));
    }
  }
  if (without_latency.size() == input.runs.size()) {
    charts = {"timeseries", "iops_latency"};
    if (any_device) charts.insert(charts.begin() + 1, "device_activity");
    notes.push_back(fmt::format(
        "no latency distribution and no latency axis: {} recorded no per-IO "
        "latency histograms{}",
        fmt::join(without_latency, ", "),
        without_latency.size() == 1
            ? " (`flashmark show` lists the latency figures "
              "the tool printed, if any)"
            : ""));
  } else if (!without_latency.empty()) {
    notes.push_back(
        fmt::format("latency charts leave out {}: no per-IO latency histograms",
                    fmt::join(without_latency, ", ")));
  }
  if (!cluster.is_null()) {
    charts.push_back("cluster_heatmap");
    // Cluster-wide percentiles: the aggregate's merged histograms.
    const size_t aggregate = cluster["aggregate_index"].get<size_t>();
    if (!input.runs[aggregate].analysis.window_histogram.empty()) {
      charts.push_back("cluster_latency");
    }
  }
  json groups = nullptr, comparison = nullptr;
  const MetricInfo info = DescribeMetric(input.runs.front().analysis.metric);
  std::vector<ComparisonUnit> units;
  bool numeric = false;
  if (*grouping) {
    const Grouping& g = **grouping;
    numeric = true;
    for (const auto& value : g.values) {
      numeric &= NumericValue(value).has_value();
    }
    json items = json::array();
    for (size_t k = 0; k < g.names.size(); ++k) {
      std::vector<double> pooled, amplification;
      LatencyAccumulator latency;
      for (size_t r : g.runs[k]) {
        if (const auto waf = RunWriteAmplification(
                SummarizeTelemetry(input.runs[r].stored.run))) {
          amplification.push_back(*waf);
        }
        const auto values = WindowValues(input.runs[r]);
        pooled.insert(pooled.end(), values.begin(), values.end());
        latency.Add(input.runs[r].analysis.window_histogram);
      }
      const BoxPlot box = TukeyBoxPlot(pooled);
      const SeriesSummary summary = SummarizeSeries(pooled);
      const LatencyHistogram merged = latency.Result();
      json run_ids = json::array();
      for (size_t r : g.runs[k]) run_ids.push_back(input.runs[r].stored.id);
      const auto value = NumericValue(g.values[k]);
      items.push_back(
          {{"name", g.names[k]},
           {"value", numeric && value ? json(*value) : json()},
           {"tool", g.tools[k].empty() ? json() : json(g.tools[k])},
           {"runs", run_ids},
           {"box", BoxJson(box)},
           {"median", summary.median},
           {"p25", summary.p25},
           {"p75", summary.p75},
           {"p95_ms",
            merged.empty() ? json() : json(Ms(merged.Quantile(0.95)))},
           {"p99_ms",
            merged.empty() ? json() : json(Ms(merged.Quantile(0.99)))},
           // The median over the group's runs of each run's WAF (SMART).
           {"write_amplification",
            amplification.empty()
                ? json()
                : json(SummarizeSeries(amplification).median)},
           {"write_amplification_runs", amplification.size()}});
    }
    if (numeric) {
      std::vector<size_t> order(items.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&items](size_t a, size_t b) {
                         return items[a]["value"].get<double>() <
                                items[b]["value"].get<double>();
                       });
      json sorted = json::array();
      for (size_t i : order) sorted.push_back(items[i]);
      items = sorted;
    }
    // Sizes are drawn in binary units; values that are all powers of two
    // (sizes, thread counts) over a 4x span or more on a log2 axis.
    bool bytes = g.by == "size";
    bool powers_of_two = numeric && g.values.size() > 1;
    double low = INFINITY, high = 0;
    for (size_t k = 0; numeric && k < g.values.size(); ++k) {
      const double v = *NumericValue(g.values[k]);
      char* end = nullptr;
      std::strtod(g.values[k].c_str(), &end);
      bytes |= *end != '\0';  // "512M", "1 GiB": a size, not a count
      powers_of_two &= v >= 1 && std::exp2(std::round(std::log2(v))) == v;
      low = std::min(low, v);
      high = std::max(high, v);
    }
    const bool log2 = input.x_axis == ReportInput::Axis::kLog2 ||
                      (input.x_axis == ReportInput::Axis::kAuto &&
                       powers_of_two && high >= 4 * low);
    const std::string x_axis = log2 ? "log2" : "linear";
    groups = {{"by", g.by},
              {"numeric", numeric},
              {"value_kind", numeric ? (bytes ? "bytes" : "count") : "name"},
              {"x_axis", numeric ? x_axis : "category"},
              {"unit", info.unit},
              {"items", items},
              {"rule", kGroupRule}};
    charts.push_back("box");
    if (numeric) {
      charts.push_back("latency_vs_param");
      charts.push_back("median_vs_param");
      // WAF against the parameter (a fill sweep), where SMART gave one.
      const bool any_waf =
          std::any_of(items.begin(), items.end(), [](const json& item) {
            return item["write_amplification"].is_number();
          });
      if (any_waf) charts.push_back("waf_vs_param");
    }
  }
  // The comparison: of the groups when they are names (devices), else of
  // the runs themselves; not of the ranks of one cluster run with their
  // aggregate (its rank table gives each rank's share).
  if (!numeric && (*grouping || (input.runs.size() > 1 && cluster.is_null()))) {
    std::vector<std::string> names;
    std::vector<std::vector<size_t>> unit_runs;
    if (*grouping) {
      names = (*grouping)->names;
      unit_runs = (*grouping)->runs;
    } else {
      for (size_t r = 0; r < input.runs.size(); ++r) {
        names.push_back(RunName(input.runs[r].stored));
        unit_runs.push_back({r});
      }
    }
    // Only like with like: runs that measure different kinds of IO are
    // drawn side by side, but no ratio is given (and the report says so).
    std::vector<ComparisonMember> everyone;
    for (const auto& unit_run : unit_runs) {
      for (size_t r : unit_run) {
        const ReportRun& run = input.runs[r];
        everyone.push_back({run.stored.id, &run.stored.run, &run.analysis,
                            &run.stored.labels.tags});
      }
    }
    if (Status like = CheckLikeWithLike(everyone);
        names.size() > 1 && !like.ok()) {
      notes.push_back("not compared: " + like.error().message);
      names.clear();
    }
    for (size_t u = 0; names.size() > 1 && u < names.size();
         ++u) {  // one: nothing to compare
      std::vector<ComparisonMember> members;
      for (size_t r : unit_runs[u]) {
        const ReportRun& run = input.runs[r];
        members.push_back({run.stored.id, &run.stored.run, &run.analysis,
                           &run.stored.labels.tags});
      }
      auto unit = BuildComparisonUnit(names[u], members);
      if (!unit.ok()) return unit.error();
      units.push_back(std::move(*unit));
    }
  }
  if (!numeric && units.size() > 1) {
    const Comparison c = CompareUnits(
        units, {}, DescribeMetric(input.runs.front().analysis.metric));
    const MetricComparison& m = c.metrics.front();
    json items = json::array();
    for (size_t u = 0; u < units.size(); ++u) {
      auto optional = [](const std::optional<double>& v) {
        return v ? json(*v) : json();
      };
      items.push_back({{"name", c.names[u]},
                       {"median", m.medians[u].estimate},
                       {"low", m.medians[u].low},
                       {"high", m.medians[u].high},
                       {"ratio", m.ratios[u].estimate},
                       {"ratio_low", m.ratios[u].low},
                       {"ratio_high", m.ratios[u].high},
                       {"price_per_gb", optional(c.costs[u].per_gb)},
                       {"price_per_mibs", optional(c.costs[u].per_mibs)},
                       {"price_per_kiops", optional(c.costs[u].per_kiops)},
                       {"currency", c.costs[u].currency}});
    }
    comparison = {{"baseline", c.names.front()},
                  {"metric", info.title},
                  {"unit", info.unit},
                  {"items", items}};
    if (std::find(charts.begin(), charts.end(), "box") == charts.end()) {
      charts.push_back("box");
      json box_items = json::array();
      for (const auto& unit : units) {
        const BoxPlot box = TukeyBoxPlot(unit.mibs);
        const SeriesSummary summary = SummarizeSeries(unit.mibs);
        box_items.push_back({{"name", unit.name},
                             {"value", nullptr},
                             {"runs", json::array()},
                             {"box", BoxJson(box)},
                             {"median", summary.median},
                             {"p25", summary.p25},
                             {"p75", summary.p75},
                             {"p95_ms", nullptr},
                             {"p99_ms", nullptr}});
      }
      groups = {{"by", "run"},
                {"numeric", false},
                {"unit", info.unit},
                {"items", box_items},
                {"rule", kGroupRule}};
    }
    charts.push_back("comparison");
  }
  return json{{"schema", "flashmark.report"},
              {"schema_version", 1},
              {"title", input.title},
              {"generated", input.generated},
              {"tool_version", kToolVersion},
              {"charts", charts},
              {"runs", runs},
              {"groups", groups},
              {"comparison", comparison},
              {"cluster", cluster},
              {"notes", notes}};
}

}  // namespace flashmark
