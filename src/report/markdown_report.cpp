#include "report/markdown_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "common/atomic_file.h"
#include "common/json_text.h"
#include "common/units.h"
#include "report/headline_text.h"
#include "report/svg_chart.h"
#include "report/text_escape.h"

namespace flashmark {
namespace {

using nlohmann::json;

std::string Text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "-";
  if (value.is_number_float()) {  // 1853, 18.5k: never 1.853e+04
    const double number = value.get<double>();
    return std::fabs(number) >= 10000 ? FormatCount(number)
                                      : SignificantText(number);
  }
  return JsonText(value);
}

// A comparison item's cost in its currency; "-" when unknown.
std::string Cost(const json& item, const char* key) {
  if (!item.contains(key) || !item[key].is_number()) return "-";
  return CostText(item[key].get<double>(), item.value("currency", ""));
}

void Table(std::ostringstream& md, const json& pairs) {
  md << "| | |\n|---|---|\n";
  for (const auto& pair : pairs) {
    md << "| " << MarkdownInline(Text(pair[0])) << " | "
       << MarkdownInline(Text(pair[1])) << " |\n";
  }
  md << "\n";
}

// A latency in ms as Text writes numbers; "-" when none was recorded.
std::string Ms3(const json& value) {
  return value.is_number() ? Text(value) : "-";
}

std::vector<double> Numbers(const json& array) {
  std::vector<double> out;
  for (const auto& v : array)
    out.push_back(v.is_number() ? v.get<double>() : 0.0);
  return out;
}

// Shades what a run's headline leaves out before its window, named as the
// HTML report names it: a fixed warm-up (--warmup 6s) is a warm-up from 0,
// then any earlier regime; an automatic one follows an earlier regime.
void LeftOutShade(const json& run, XyChart& chart) {
  const json& ss = run["steady_state"];
  const json& h = run["headline"];
  const double warmup = ss.value("warmup_end", 0.0);
  const double regime = h.value("regime_start_seconds", 0.0);
  const double start = std::max(warmup, regime);
  if (!(start > 0)) return;
  chart.shade = {0.0, start};
  if (ss.value("warmup_mode", "") == "fixed") {
    chart.shade_label = regime > warmup ? "warm-up, earlier regime" : "warm-up";
  } else {
    chart.shade_label = regime > 0 ? "earlier regime, warm-up" : "warm-up";
  }
}

}  // namespace

std::vector<PendingFile> MarkdownReportFiles(const json& data,
                                             const std::string& path) {
  const std::filesystem::path target(path);
  const std::string stem = target.stem().string();
  const std::filesystem::path dir = target.parent_path();
  std::vector<std::pair<std::string, std::string>> svgs;  // file name, content
  std::ostringstream md;
  md << "# " << MarkdownInline(Text(data["title"])) << "\n\n";
  md << "Generated " << MarkdownInline(Text(data["generated"]))
     << " by flashmark " << MarkdownInline(Text(data["tool_version"]))
     << ".\n\n";

  // The per-run time series, all runs on one chart.
  XyChart series;
  series.title = "Throughput per interval";
  series.x_label = "time (s)";
  XyChart cdf;
  cdf.title = "Latency distribution (CDF)";
  cdf.x_label = "latency (ms, log)";
  cdf.y_label = "fraction of IOs";
  cdf.log_x = true;
  for (const auto& run : data["runs"]) {
    const auto& s = run["summary"];
    series.y_label = Text(s["metric"]) + " (" + Text(s["unit"]) + ")";
    // Each run's headline median as a dashed line in its colour, over the
    // headline's window only.
    const auto& h = run["headline"];
    const double from = h.value("start_seconds", 0.0);
    const double to = h.value("end_seconds", 0.0);
    series.series.push_back(
        {Text(run["name"]), Numbers(run["series"]["t"]),
         Numbers(run["series"]["value"]), false, s["median"].get<double>(),
         to > from ? std::optional(std::make_pair(from, to)) : std::nullopt});
    cdf.series.push_back({Text(run["name"]), Numbers(run["latency_cdf"]["ms"]),
                          Numbers(run["latency_cdf"]["fraction"]), true,
                          std::nullopt});
    if (data["runs"].size() == 1) {
      LeftOutShade(run, series);
      for (const auto& change : run["changes"]) {
        series.markers.emplace_back(change["t"].get<double>(),
                                    Text(change["text"]));
      }
    }
  }
  for (const auto& note : data["notes"]) {
    md << "Note: " << MarkdownInline(Text(note)) << "\n\n";
  }
  svgs.emplace_back(stem + "-timeseries.svg", RenderXyChart(series));
  md << "![throughput per interval](" << stem << "-timeseries.svg)\n\n";
  const auto& charts = data["charts"];
  if (std::find(charts.begin(), charts.end(), "latency_distribution") !=
      charts.end()) {
    svgs.emplace_back(stem + "-latency-cdf.svg", RenderXyChart(cdf));
    md << "![latency distribution](" << stem << "-latency-cdf.svg)\n\n";
  }

  if (!data["groups"].is_null()) {
    const auto& g = data["groups"];
    std::vector<SvgBox> boxes;
    md << "## By " << MarkdownInline(Text(g["by"])) << "\n\n"
       << "Values: " << MarkdownInline(Text(g["rule"])) << ".\n\n| "
       << MarkdownInline(Text(g["by"]))
       << " | median | p25 | p75 | whiskers | outliers | p95 ms | p99 ms |\n"
          "|---|---|---|---|---|---|---|---|\n";
    XyChart medians;
    medians.title = "Median vs " + Text(g["by"]);
    medians.x_label = Text(g["by"]);
    medians.y_label = "median (" + Text(g["unit"]) + ")";
    medians.log_x = medians.log2_x = g.value("x_axis", "") == "log2";
    medians.bytes_x = g.value("value_kind", "") == "bytes";
    SvgSeries median_line{"median", {}, {}, true, std::nullopt},
        low{"p25", {}, {}, true, std::nullopt},
        high{"p75", {}, {}, true, std::nullopt};
    for (const auto& item : g["items"]) {
      const auto& b = item["box"];
      boxes.push_back({Text(item["name"]), b["lower_whisker"].get<double>(),
                       b["q1"].get<double>(), b["median"].get<double>(),
                       b["q3"].get<double>(), b["upper_whisker"].get<double>(),
                       Numbers(b["outliers"])});
      md << fmt::format("| {} | {} | {} | {} | {}..{} | {} | {} | {} |\n",
                        MarkdownInline(Text(item["name"])),
                        Text(item["median"]), Text(item["p25"]),
                        Text(item["p75"]), Text(b["lower_whisker"]),
                        Text(b["upper_whisker"]), b["outliers"].size(),
                        Text(item["p95_ms"]), Text(item["p99_ms"]));
      if (item["value"].is_number()) {
        const double x = item["value"].get<double>();
        median_line.x.push_back(x),
            median_line.y.push_back(item["median"].get<double>());
        low.x.push_back(x), low.y.push_back(item["p25"].get<double>());
        high.x.push_back(x), high.y.push_back(item["p75"].get<double>());
      }
    }
    md << "\n";
    svgs.emplace_back(
        stem + "-box.svg",
        RenderBoxChart("Per-interval " + Text(g["unit"]) + " by " +
                           Text(g["by"]) + " (Tukey box plots)",
                       Text(g["by"]), Text(g["unit"]), boxes));
    md << "![box plots](" << stem << "-box.svg)\n\n";
    if (g["numeric"].get<bool>()) {
      medians.series = {median_line, low, high};
      svgs.emplace_back(stem + "-median.svg", RenderXyChart(medians));
      md << "![median vs " << MarkdownInline(Text(g["by"])) << "](" << stem
         << "-median.svg)\n\n";
    }
    if (std::find(charts.begin(), charts.end(), "waf_vs_param") !=
        charts.end()) {
      XyChart waf = medians;
      waf.title = "Write amplification vs " + Text(g["by"]);
      waf.y_label = "WAF (media / host writes, SMART)";
      SvgSeries line{"WAF", {}, {}, true, std::nullopt};
      md << "| " << MarkdownInline(Text(g["by"]))
         << " | write amplification (median of its runs) | runs with one |\n"
            "|---|---|---|\n";
      for (const auto& item : g["items"]) {
        const json& value = item["write_amplification"];
        md << fmt::format(
            "| {} | {} | {} |\n", MarkdownInline(Text(item["name"])),
            value.is_number() ? fmt::format("{:.2f}", value.get<double>())
                              : "- (no media writes)",
            Text(item["write_amplification_runs"]));
        if (value.is_number() && item["value"].is_number()) {
          line.x.push_back(item["value"].get<double>());
          line.y.push_back(value.get<double>());
        }
      }
      md << "\n";
      waf.series = {line};
      svgs.emplace_back(stem + "-waf.svg", RenderXyChart(waf));
      md << "![write amplification vs " << MarkdownInline(Text(g["by"])) << "]("
         << stem << "-waf.svg)\n\n";
    }
  }
  if (!data["comparison"].is_null()) {
    const auto& c = data["comparison"];
    md << "## Comparison with " << MarkdownInline(Text(c["baseline"])) << "\n\n"
       << "| | median " << MarkdownInline(Text(c["unit"]))
       << " (95 % CI) | ratio (95 % CI) | per GB | per MiB/s | per kIOPS |\n"
          "|---|---|---|---|---|---|\n";
    for (const auto& item : c["items"]) {
      md << fmt::format(
          "| {} | {} ({}..{}) | {} x ({}..{}) | {} | {} | {} |\n",
          MarkdownInline(Text(item["name"])), Text(item["median"]),
          Text(item["low"]), Text(item["high"]), Text(item["ratio"]),
          Text(item["ratio_low"]), Text(item["ratio_high"]),
          Cost(item, "price_per_gb"), Cost(item, "price_per_mibs"),
          Cost(item, "price_per_kiops"));
    }
    md << "\n";
  }
  if (!data["cluster"].is_null()) {
    const auto& c = data["cluster"];
    md << "## Cluster: " << c["items"].size() << " ranks\n\n"
       << MarkdownInline(Text(c["summary"])) << ".\n\n"
       << "| rank | run | status | median " << MarkdownInline(Text(c["unit"]))
       << " | IOPS | p99 ms | IOs | share of the bytes |\n"
          "|---|---|---|---|---|---|---|---|\n";
    json items = c["items"];
    items.push_back(c["aggregate"]);
    for (const auto& item : items) {
      md << fmt::format(
          "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
          MarkdownInline(Text(item["name"])), Text(item["id"]),
          MarkdownInline(Text(item["status"])), Text(item["median"]),
          Text(item["iops_median"]), Ms3(item["p99_ms"]), Text(item["ios"]),
          item["share_percent"].is_number()
              ? fmt::format("{:.1f} %", item["share_percent"].get<double>())
              : "-");
    }
    md << "\n";
  }
  for (const auto& run : data["runs"]) {
    const auto& s = run["summary"];
    const auto& ss = run["steady_state"];
    md << "## " << MarkdownInline(Text(run["name"])) << " (run "
       << Text(run["id"]) << ", " << MarkdownInline(Text(run["status"]))
       << ")\n\n"
       << MarkdownInline(Text(run["workload"])) << "\n\n";
    md << fmt::format(
        "**{} median {} {}** (95 % CI {}..{}); p25..p75 {}..{}; p5..p95 "
        "{}..{}; min {}, max {}; mean {}; CV {:.1f} %; IOPS median {}; "
        "latency p50 {} / p95 {} / p99 {} / p99.9 {} ms.\n\n",
        MarkdownInline(Text(s["metric"])), Text(s["median"]),
        MarkdownInline(Text(s["unit"])), Text(s["ci_low"]), Text(s["ci_high"]),
        Text(s["p25"]), Text(s["p75"]), Text(s["p5"]), Text(s["p95"]),
        Text(s["min"]), Text(s["max"]), Text(s["mean"]),
        s["cv_percent"].get<double>(), Text(s["iops_median"]),
        Ms3(s["latency_ms"]["p50"]), Ms3(s["latency_ms"]["p95"]),
        Ms3(s["latency_ms"]["p99"]), Ms3(s["latency_ms"]["p99.9"]));
    const auto& h = run["headline"];
    md << fmt::format("Headline: {}; whole run median {} {}. {}.\n\n",
                      MarkdownInline(Text(h["rule"])),
                      Text(h["whole_run_median"]),
                      MarkdownInline(Text(s["unit"])),
                      MarkdownInline(Text(h["verdict_text"])));
    md << fmt::format(
        "Steady state (SNIA PTS, rounds of {:g} s): {}; over the whole run "
        "data excursion {:.1f} % (allowed {:g} %), slope excursion {:.1f} % "
        "(allowed {:g} %); warm-up {:g} s ({}).\n\n",
        ss["round_seconds"].get<double>(),
        // The verdict of the headline's window, as the runs table gives it.
        h["verdict"] == "steady"       ? "steady"
        : h["verdict"] == "not_steady" ? "**not steady**"
                                       : "too short to judge",
        ss["data_excursion_percent"].get<double>(),
        ss["allowed_data_percent"].get<double>(),
        ss["slope_excursion_percent"].get<double>(),
        ss["allowed_slope_percent"].get<double>(),
        ss["warmup_end"].get<double>(),
        MarkdownInline(Text(ss["warmup_source"])));
    for (const auto& change : run["changes"])
      md << "- " << MarkdownInline(Text(change["text"])) << "\n";
    if (!run["changes"].empty()) md << "\n";
    md << "Configuration\n\n";
    Table(md, run["config"]);
    md << "Environment\n\n";
    Table(md, run["environment"]);
    md << "Reproduce with\n\n"
       << MarkdownFence(Text(run["reproduce"]), "sh") << "\n";
  }
  std::vector<PendingFile> files;
  for (auto& [name, svg] : svgs) {
    files.push_back({(dir / name).string(), std::move(svg)});
  }
  files.push_back({path, md.str()});
  return files;
}

}  // namespace flashmark
