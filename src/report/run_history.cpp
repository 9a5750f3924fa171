#include "report/run_history.h"

#include <fmt/format.h>

#include <cmath>

#include "analysis/change_points.h"
#include "common/local_time.h"
#include "report/svg_chart.h"
#include "report/text_escape.h"

namespace flashmark {
namespace {

std::string HistoryValue(double value, const MetricInfo& metric) {
  return fmt::format("{} {}", FormatSignificant(value), metric.unit);
}

std::string HistoryPercent(double relative) {
  return fmt::format("{:+.1f} %", 100 * relative);
}

std::string HistoryPValue(double p) {
  if (p < 1e-3) return fmt::format("{:.1e}", p);
  return fmt::format("{:.3f}", p);
}

std::string HistoryWhen(int64_t unix_ns) {
  return LocalTimeText(unix_ns, "%Y-%m-%d %H:%M");
}

const char* ChangeDirection(const MetricInfo& metric, double relative) {
  return IsWorse(metric, relative) ? "regression" : "improvement";
}

const char* NewestVerdictName(NewestVerdict verdict) {
  switch (verdict) {
    case NewestVerdict::kNotJudged:
      return "not judged";
    case NewestVerdict::kInLine:
      return "in line";
    case NewestVerdict::kImprovement:
      return "improvement";
    case NewestVerdict::kRegression:
      return "regression";
  }
  return "";
}

// "runs 3..40"
std::string HistoryRunSpan(const RunHistory& h, size_t begin, size_t end) {
  if (end - begin == 1) return fmt::format("run {}", h.runs[begin].id);
  return fmt::format("runs {}..{}", h.runs[begin].id, h.runs[end - 1].id);
}

// One line: what the newest run is, against what.
std::string NewestRunLine(const RunHistory& h) {
  const NewestJudgement& n = h.newest;
  const HistoryRun& newest = h.runs.back();
  const std::string head = fmt::format("newest run {} ({}): {}", newest.id,
                                       HistoryWhen(newest.start_unix_ns),
                                       HistoryValue(newest.value, h.metric));
  if (!n.judged) {
    return head +
           fmt::format(", not judged: it needs {} runs of its level before it",
                       h.options.min_runs);
  }
  const std::string baseline =
      fmt::format("median {} over {}", HistoryValue(n.baseline, h.metric),
                  HistoryRunSpan(h, n.baseline_begin, n.baseline_end));
  if (n.from_change) {
    return head + fmt::format(
                      ", a new level from run {}: {} against the {} "
                      "({}, p = {})",
                      h.runs[n.change_index].id, HistoryPercent(n.relative),
                      baseline, NewestVerdictName(h.verdict),
                      HistoryPValue(n.p_value));
  }
  if (h.verdict == NewestVerdict::kInLine) {
    return head + fmt::format(", in line with its level ({}; p = {})", baseline,
                              HistoryPValue(n.p_value));
  }
  return head + fmt::format(", {} against its level ({}): {}, p = {}",
                            NewestVerdictName(h.verdict), baseline,
                            HistoryPercent(n.relative),
                            HistoryPValue(n.p_value));
}

std::string RegressionCheckLine(const RunHistory& h) {
  const double threshold = 100 * *h.fail_threshold;
  if (h.fails) {
    return fmt::format(
        "regression check FAILED: the newest run is {} off, beyond {:g} %",
        HistoryPercent(h.newest.relative), threshold);
  }
  if (h.verdict == NewestVerdict::kRegression) {
    return fmt::format(
        "regression check passed: the newest run's {} is within {:g} %",
        HistoryPercent(h.newest.relative), threshold);
  }
  return fmt::format(
      "regression check passed: the newest run is no regression (threshold "
      "{:g} %)",
      threshold);
}

std::string HistoryMethodLine(const HistoryOptions& options) {
  return fmt::format(
      "Levels by E-Divisive means (Matteson & James 2014); a change holds "
      "where Student's t gives p < {:g} shared among the splits searched, "
      "levels of at least {} runs",
      options.max_p_value, options.min_runs);
}

std::string HistoryChartSvg(const RunHistory& h) {
  XyChart chart;
  chart.title = fmt::format("{}: {}", h.name, h.metric.title);
  chart.x_label =
      "run, oldest first (1 = run " + std::to_string(h.runs[0].id) + ")";
  chart.y_label = h.metric.unit;
  for (size_t k = 0; k < h.changes.segments.size(); ++k) {
    const HistorySegment& level = h.changes.segments[k];
    SvgSeries series;
    series.name = fmt::format("level {}", k + 1);
    series.line = true;
    for (size_t i = level.begin; i < level.end; ++i) {
      series.x.push_back(static_cast<double>(i + 1));
      series.y.push_back(h.runs[i].value);
    }
    series.median = level.median;
    series.median_span = std::pair<double, double>(
        static_cast<double>(level.begin + 1), static_cast<double>(level.end));
    chart.series.push_back(std::move(series));
  }
  for (size_t k = 0; k < h.changes.changes.size(); ++k) {
    const HistoryChange& change = h.changes.changes[k];
    chart.markers.emplace_back(
        static_cast<double>(change.index) + 0.5,
        fmt::format("{} run {}: {}", k + 1, h.runs[change.index].id,
                    HistoryPercent(change.relative)));
  }
  return RenderXyChart(chart);
}

std::string HistoryHtml(const std::string& text) { return XmlEscape(text); }

}  // namespace

bool IsWorse(const MetricInfo& metric, double relative) {
  return metric.higher_is_better ? relative < 0 : relative > 0;
}

void JudgeHistory(RunHistory& h) {
  const HistoryOptions& options = h.options;
  std::vector<double> values;
  values.reserve(h.runs.size());
  for (const HistoryRun& run : h.runs) values.push_back(run.value);
  h.changes = FindHistoryChanges(values, options);
  h.newest = JudgeNewest(values, h.changes, options);
  if (!h.newest.judged) {
    h.verdict = NewestVerdict::kNotJudged;
  } else if (!h.newest.differs) {
    h.verdict = NewestVerdict::kInLine;
  } else {
    h.verdict = IsWorse(h.metric, h.newest.relative)
                    ? NewestVerdict::kRegression
                    : NewestVerdict::kImprovement;
  }
  h.fails = h.fail_threshold && h.verdict == NewestVerdict::kRegression &&
            std::abs(h.newest.relative) > *h.fail_threshold;
}

std::string HistoryText(const RunHistory& h) {
  const std::string what =
      h.metric.title == h.metric.unit
          ? h.metric.title
          : fmt::format("{} ({})", h.metric.title, h.metric.unit);
  std::string out = fmt::format(
      "history of {}: {} runs of {}, {}\n  {}\n  {}\n\n", TerminalText(h.name),
      h.runs.size(), h.workload, what, h.rule, HistoryMethodLine(h.options));
  out += fmt::format("{:>6}  {:<16}  {:>10}  {:>5}  {}\n", "RUN", "STARTED",
                     h.metric.unit, "LEVEL", "LABEL / TAGS");
  size_t level = 0;
  for (size_t i = 0; i < h.runs.size(); ++i) {
    while (i >= h.changes.segments[level].end) ++level;
    const HistoryRun& run = h.runs[i];
    out += fmt::format("{:>6}  {:<16}  {:>10}  {:>5}  {}\n", run.id,
                       HistoryWhen(run.start_unix_ns),
                       FormatSignificant(run.value), level + 1,
                       TerminalText(run.label));
  }
  out += "\n";
  if (h.changes.changes.empty()) {
    out += fmt::format("no change across the runs: one level, median {}\n",
                       HistoryValue(h.changes.segments[0].median, h.metric));
  } else {
    out += fmt::format("{} change{}:\n", h.changes.changes.size(),
                       h.changes.changes.size() == 1 ? "" : "s");
    for (const HistoryChange& change : h.changes.changes) {
      const HistoryRun& run = h.runs[change.index];
      out += fmt::format(
          "  from run {} ({}): {} -> {} ({}), p = {}: {}\n", run.id,
          HistoryWhen(run.start_unix_ns), FormatSignificant(change.before),
          HistoryValue(change.after, h.metric), HistoryPercent(change.relative),
          HistoryPValue(change.p_value),
          ChangeDirection(h.metric, change.relative));
    }
  }
  out += NewestRunLine(h) + "\n";
  if (h.fail_threshold) out += RegressionCheckLine(h) + "\n";
  return out;
}

nlohmann::json HistoryJson(const std::vector<RunHistory>& histories) {
  nlohmann::json list = nlohmann::json::array();
  for (const RunHistory& h : histories) {
    nlohmann::json runs = nlohmann::json::array();
    size_t level = 0;
    for (size_t i = 0; i < h.runs.size(); ++i) {
      while (i >= h.changes.segments[level].end) ++level;
      const HistoryRun& run = h.runs[i];
      runs.push_back({{"id", run.id},
                      {"start_unix_ns", run.start_unix_ns},
                      {"label", run.label},
                      {"value", run.value},
                      {"level", level + 1}});
    }
    nlohmann::json levels = nlohmann::json::array();
    for (const HistorySegment& s : h.changes.segments) {
      levels.push_back({{"first_run", h.runs[s.begin].id},
                        {"last_run", h.runs[s.end - 1].id},
                        {"runs", s.end - s.begin},
                        {"median", s.median},
                        {"mean", s.mean},
                        {"stddev", s.stddev}});
    }
    nlohmann::json changes = nlohmann::json::array();
    for (const HistoryChange& c : h.changes.changes) {
      changes.push_back({{"run", h.runs[c.index].id},
                         {"before", c.before},
                         {"after", c.after},
                         {"change_percent", 100 * c.relative},
                         {"p_value", c.p_value},
                         {"direction", ChangeDirection(h.metric, c.relative)}});
    }
    const NewestJudgement& n = h.newest;
    nlohmann::json newest = {{"run", h.runs.back().id},
                             {"value", n.value},
                             {"verdict", NewestVerdictName(h.verdict)}};
    if (n.judged) {
      newest["baseline"] = n.baseline;
      newest["baseline_first_run"] = h.runs[n.baseline_begin].id;
      newest["baseline_last_run"] = h.runs[n.baseline_end - 1].id;
      newest["change_percent"] = 100 * n.relative;
      newest["p_value"] = n.p_value;
      newest["new_level_from_run"] =
          n.from_change ? nlohmann::json(h.runs[n.change_index].id)
                        : nlohmann::json(nullptr);
    }
    nlohmann::json item = {{"name", h.name},
                           {"workload", h.workload},
                           {"metric", h.metric.name},
                           {"unit", h.metric.unit},
                           {"higher_is_better", h.metric.higher_is_better},
                           {"rule", h.rule},
                           {"method", HistoryMethodLine(h.options)},
                           {"max_p_value", h.options.max_p_value},
                           {"min_runs", h.options.min_runs},
                           {"runs", std::move(runs)},
                           {"levels", std::move(levels)},
                           {"changes", std::move(changes)},
                           {"newest", std::move(newest)}};
    if (h.fail_threshold) {
      item["fail_on_regression_percent"] = 100 * *h.fail_threshold;
      item["fails"] = h.fails;
    }
    list.push_back(std::move(item));
  }
  return {{"schema", "flashmark.history"}, {"histories", std::move(list)}};
}

std::string HistoryPage(const std::vector<RunHistory>& histories,
                        const std::string& title,
                        const std::string& generated) {
  std::string page = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
      "'none'; style-src 'unsafe-inline'\">\n<title>{}</title>\n"
      "<style>body{{font:14px system-ui,sans-serif;margin:2em;max-width:"
      "1200px}}table{{border-collapse:collapse;margin:1em 0}}td,th{{padding:"
      "2px 10px;border-bottom:1px solid #ddd;text-align:left}}td.n{{text-"
      "align:right}}.regression{{color:#b00020;font-weight:bold}}"
      ".improvement{{color:#1b7a1b}}.fails{{background:#fde7e9;padding:6px}}"
      "</style></head><body>\n<h1>{}</h1>\n<p>{}</p>\n",
      HistoryHtml(title), HistoryHtml(title), HistoryHtml(generated));
  for (const RunHistory& h : histories) {
    page += fmt::format(
        "<section class=\"history\"><h2>{}</h2>\n<p>{} runs of "
        "{}; {}.<br>{}.</p>\n",
        HistoryHtml(h.name), h.runs.size(), HistoryHtml(h.workload),
        HistoryHtml(h.rule), HistoryHtml(HistoryMethodLine(h.options)));
    if (h.fail_threshold) {
      page += fmt::format("<p class=\"{}\">{}</p>\n", h.fails ? "fails" : "",
                          HistoryHtml(RegressionCheckLine(h)));
    }
    page += HistoryChartSvg(h) + "\n";
    page += "<h3>Changes</h3>\n";
    if (h.changes.changes.empty()) {
      page += "<p>No change across the runs: one level.</p>\n";
    } else {
      page +=
          "<table><tr><th>#</th><th>from run</th><th>started</th>"
          "<th>before</th><th>after</th><th>change</th><th>p</th>"
          "<th></th></tr>\n";
      for (size_t k = 0; k < h.changes.changes.size(); ++k) {
        const HistoryChange& c = h.changes.changes[k];
        const HistoryRun& run = h.runs[c.index];
        const char* direction = ChangeDirection(h.metric, c.relative);
        page += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td>"
            "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}"
            "</td><td class=\"{}\">{}</td></tr>\n",
            k + 1, run.id, HistoryWhen(run.start_unix_ns),
            HistoryHtml(HistoryValue(c.before, h.metric)),
            HistoryHtml(HistoryValue(c.after, h.metric)),
            HistoryPercent(c.relative), HistoryPValue(c.p_value), direction,
            direction);
      }
      page += "</table>\n";
    }
    page += fmt::format("<p class=\"newest {}\">{}</p>\n",
                        NewestVerdictName(h.verdict),
                        HistoryHtml(NewestRunLine(h)));
    page += fmt::format(
        "<h3>Runs</h3>\n<table><tr><th>run</th><th>started</th><th>{}</th>"
        "<th>level</th><th>label / tags</th></tr>\n",
        HistoryHtml(h.metric.unit));
    size_t level = 0;
    for (size_t i = 0; i < h.runs.size(); ++i) {
      while (i >= h.changes.segments[level].end) ++level;
      const HistoryRun& run = h.runs[i];
      page += fmt::format(
          "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}"
          "</td><td>{}</td></tr>\n",
          run.id, HistoryWhen(run.start_unix_ns), FormatSignificant(run.value),
          level + 1, HistoryHtml(run.label));
    }
    page += "</table></section>\n";
  }
  page += "</body></html>\n";
  return page;
}

}  // namespace flashmark
