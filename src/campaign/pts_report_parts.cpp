#include "campaign/pts_report_parts.h"

#include <fmt/format.h>

#include "common/units.h"

namespace flashmark::pts_report {

bool InWindow(const Cell& cell, const RoundVerdict& verdict) {
  return cell.run != nullptr && verdict.last_window &&
         cell.round >= int(verdict.last_window->first_round) &&
         cell.round <= int(verdict.last_window->last_round);
}

std::string Escape(const std::string& text) { return XmlEscape(text); }

std::string Table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::string& css_class) {
  std::string html = css_class.empty()
                         ? "<table>"
                         : fmt::format("<table class=\"{}\">", css_class);
  html += "<tr>";
  for (const std::string& cell : header)
    html += "<th>" + Escape(cell) + "</th>";
  html += "</tr>";
  for (const auto& row : rows) {
    html += "<tr>";
    for (const std::string& cell : row) html += "<td>" + Escape(cell) + "</td>";
    html += "</tr>";
  }
  return html + "</table>\n";
}

std::string ChartBlock(const XyChart& chart, const std::string& id) {
  return fmt::format("<figure class=\"chart\" id=\"{}\">{}</figure>\n", id,
                     RenderXyChart(chart));
}

std::string Parameter(const StoredCell& cell, const std::string& name) {
  for (const auto& [key, value] : cell.parameters) {
    if (key == name) return value;
  }
  return "";
}

std::string ParametersText(const Cell& cell) {
  const std::string text = CellParametersText(*cell.plan);
  return text.empty() ? "-" : text;
}

std::string Number(double value) {
  return value >= 1000 ? FormatCount(value) : fmt::format("{:.4g}", value);
}

}  // namespace flashmark::pts_report
