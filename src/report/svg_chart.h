// Small static SVG charts for the Markdown report (GitHub shows them as
// images): an x/y chart (scatter or lines, optional log x axis, a
// horizontal reference line, labelled vertical markers, a shaded span) and
// a Tukey box-plot chart. Every text is XML-escaped. Pure.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace flashmark {

struct SvgSeries {
  std::string name;
  std::vector<double> x, y;
  bool line = false;  // else points
};

struct XyChart {
  std::string title, x_label, y_label;
  bool log_x = false;
  std::vector<SvgSeries> series;
  std::optional<std::pair<double, std::string>> reference;  // y, label
  std::vector<std::pair<double, std::string>> markers;      // x, label
  std::optional<std::pair<double, double>> shade;           // x from, to
};

struct SvgBox {
  std::string name;
  double lower_whisker = 0, q1 = 0, median = 0, q3 = 0, upper_whisker = 0;
  std::vector<double> outliers;
};

std::string RenderXyChart(const XyChart& chart);
std::string RenderBoxChart(const std::string& title, const std::string& x_label,
                           const std::string& y_label,
                           const std::vector<SvgBox>& boxes);
std::string XmlEscape(const std::string& text);

}  // namespace flashmark
