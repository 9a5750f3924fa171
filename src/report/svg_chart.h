// Small static SVG charts for the Markdown report (GitHub shows them as
// images): an x/y chart (scatter or lines with a marker at each point when
// there are few, optional log10 or log2 x axis, sizes in binary units, a
// horizontal reference line, a dashed median line per series, labelled
// vertical markers, a labelled shaded span, named x categories) and a
// Tukey box-plot chart. Legends stand right of the plot, never over the
// data; the reference line's label moves below its line rather than over a
// marker's label. Every text is XML-escaped. Pure.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace flashmark {

struct SvgSeries {
  std::string name;
  std::vector<double> x, y;
  bool line = false;             // else points
  std::optional<double> median;  // drawn as a dashed line in its colour
  // The x span the median was taken over (a headline's window): its line
  // is drawn there only; else across the plot.
  std::optional<std::pair<double, double>> median_span = std::nullopt;
};

struct XyChart {
  std::string title, x_label, y_label;
  bool log_x = false;
  std::vector<SvgSeries> series;
  std::optional<std::pair<double, std::string>> reference;  // y, label
  std::vector<std::pair<double, std::string>> markers;      // x, label
  std::optional<std::pair<double, double>> shade;           // x from, to
  std::string shade_label = "warm-up";  // what the shaded span is
  bool log2_x = false;                  // with log_x: ticks at powers of two
  bool bytes_x = false;                 // x values are sizes: 512 MiB, 1 GiB
  // When set, x is a category axis: x = 1..n are named so ("4k", "8k"),
  // one tick each, half a step of margin either side.
  std::vector<std::string> x_categories;
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
