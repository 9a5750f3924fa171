#include "document/tool_report_format.h"

#include <fmt/format.h>

#include <cmath>

#include "analysis/quantiles.h"
#include "common/json_text.h"

namespace flashmark {

using nlohmann::json;

json ToJson(const ToolReport& report) {
  json options = json::object();
  for (const auto& [name, value] : report.options) options[name] = value;
  json figures = json::array();
  for (const auto& figure : report.figures) {
    figures.push_back({{"name", figure.name},
                       {"value", figure.value},
                       {"unit", figure.unit}});
  }
  json series = json::array();
  for (const auto& s : report.series) {
    json values = json::array();
    for (double v : s.values)
      values.push_back(std::isnan(v) ? json() : json(v));
    series.push_back({{"name", s.name}, {"unit", s.unit}, {"values", values}});
  }
  return {{"tool", report.tool}, {"version", report.version},
          {"file", report.file}, {"job", report.job},
          {"options", options},  {"figures", figures},
          {"series", series},    {"notes", report.notes}};
}

ToolReport ToolReportFromJson(const json& value) {
  ToolReport report;
  if (!value.is_object()) return report;
  report.tool = value.value("tool", "");
  report.version = value.value("version", "");
  report.file = value.value("file", "");
  report.job = value.value("job", "");
  const json options = value.value("options", json::object());
  for (const auto& [name, option] : options.items()) {
    report.options.emplace_back(name, option.is_string()
                                          ? option.get<std::string>()
                                          : JsonText(option));
  }
  for (const auto& figure : value.value("figures", json::array())) {
    report.figures.push_back({figure.value("name", ""),
                              figure.value("value", 0.0),
                              figure.value("unit", "")});
  }
  for (const auto& s : value.value("series", json::array())) {
    ToolSeries series{s.value("name", ""), s.value("unit", ""), {}};
    for (const auto& v : s.value("values", json::array())) {
      series.values.push_back(v.is_number() ? v.get<double>() : std::nan(""));
    }
    report.series.push_back(std::move(series));
  }
  report.notes = value.value("notes", std::vector<std::string>{});
  return report;
}

namespace {

// As the tool printed it: whole numbers whole, others in their shortest
// exact form (14433.22, not 14433.2 or 1.443322e+04).
std::string Number(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return fmt::format("{:.0f}", value);
  }
  return fmt::format("{}", value);
}

}  // namespace

void PrintToolReport(const ToolReport& report, std::ostream& out) {
  if (report.empty()) return;
  const bool named = report.version.rfind(report.tool, 0) == 0;  // "fio-3.33"
  out << fmt::format("reported by {}{}{} in {}\n",
                     named ? "" : report.tool + " ", report.version,
                     report.job.empty() ? "" : " (job " + report.job + ")",
                     report.file);
  std::string line;
  for (const auto& figure : report.figures) {
    std::string item =
        fmt::format("{} {}{}", figure.name, Number(figure.value),
                    figure.unit.empty() ? "" : " " + figure.unit);
    if (!line.empty() && line.size() + item.size() > 76) {
      out << "  " << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : ";  ") + item;
  }
  if (!line.empty()) out << "  " << line << "\n";
  for (const auto& series : report.series) {
    std::vector<double> values;
    for (double v : series.values) {
      if (!std::isnan(v)) values.push_back(v);
    }
    if (values.empty()) continue;
    const SeriesSummary s = SummarizeSeries(std::move(values));
    out << fmt::format(
        "  per interval: {} median {} {} (min {}, max {}; "
        "{} intervals)\n",
        series.name, Number(s.median), series.unit, Number(s.min),
        Number(s.max), s.count);
  }
  for (const auto& note : report.notes) out << "  note: " << note << "\n";
}

}  // namespace flashmark
