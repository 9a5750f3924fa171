#include "report/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace flashmark {
namespace {

constexpr double kWidth = 900, kHeight = 380;
// The plot ends kRight from the edge: the legend stands there.
constexpr double kLeft = 70, kRight = 190, kTop = 40, kBottom = 50;
// Below the x axis, where the tick labels' baseline is: a tick at the
// axis' left end clears the y axis' lowest label (which sits on the axis).
constexpr double kTickBaseline = 21;
constexpr const char* kColors[] = {"#2f6fb0", "#d9822b", "#3a9b5c", "#b33d3d",
                                   "#7a52a8", "#6b6b6b", "#c2a422", "#1f9fa8"};

// Round tick positions covering [low, high].
std::vector<double> Ticks(double low, double high) {
  if (!(high > low)) return {low};
  const double raw = (high - low) / 5;
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= factor * magnitude) {
      step = factor * magnitude;
      break;
    }
  }
  std::vector<double> ticks;
  for (double t = std::ceil(low / step) * step; t <= high + step * 1e-9;
       t += step) {
    ticks.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
  }
  return ticks;
}

// "512 MiB", "1.5 GiB": a size tick.
std::string Bytes(double value) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int k = 0;
  while (std::abs(value) >= 1024 && k < 5) {
    value /= 1024;
    ++k;
  }
  return fmt::format("{:.3g} {}", value, units[k]);
}

std::string Number(double value) {
  if (value == 0) return "0";
  const double magnitude = std::abs(value);
  if (magnitude >= 1e6) return fmt::format("{:.3g}M", value / 1e6);
  if (magnitude >= 1e4) return fmt::format("{:.3g}k", value / 1e3);
  return fmt::format("{:.4g}", value);
}

struct Frame {
  double x_low, x_high, y_low, y_high;
  bool log_x;
  double X(double x) const {
    const double a = log_x ? std::log10(x) : x;
    const double lo = log_x ? std::log10(x_low) : x_low;
    const double hi = log_x ? std::log10(x_high) : x_high;
    return kLeft + (a - lo) / (hi - lo) * (kWidth - kLeft - kRight);
  }
  double Y(double y) const {
    return kHeight - kBottom -
           (y - y_low) / (y_high - y_low) * (kHeight - kTop - kBottom);
  }
};

std::string Open(const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"22\" font-size=\"15\" "
      "font-weight=\"bold\">{3}</text>\n",
      kWidth, kHeight, kLeft, XmlEscape(title));
}

// An x tick: its position and its label.
using XTick = std::pair<double, std::string>;

std::string Axes(const Frame& f, const std::string& x_label,
                 const std::string& y_label, const std::vector<XTick>& x_ticks,
                 const std::vector<double>& y_ticks) {
  std::string svg = fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
      "stroke=\"#999\"/>\n",
      kLeft, kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  for (double t : y_ticks) {
    svg += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" "
        "stroke=\"#eee\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        kLeft, kWidth - kRight, f.Y(t), kLeft - 6, f.Y(t) + 4, Number(t));
  }
  for (const auto& [t, label] : x_ticks) {
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        f.X(t), kHeight - kBottom + kTickBaseline, XmlEscape(label));
  }
  svg += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n"
      "<text transform=\"translate(16,{}) rotate(-90)\" "
      "text-anchor=\"middle\">{}</text>\n",
      (kLeft + kWidth - kRight) / 2, kHeight - 12, XmlEscape(x_label),
      (kTop + kHeight - kBottom) / 2, XmlEscape(y_label));
  return svg;
}

// The x ticks of a chart: its categories, else round values (powers of
// the base on a log axis) labelled as numbers or sizes.
std::vector<XTick> XTicks(const XyChart& chart, double x_low, double x_high) {
  std::vector<XTick> ticks;
  if (!chart.x_categories.empty()) {
    for (size_t k = 0; k < chart.x_categories.size(); ++k) {
      ticks.emplace_back(static_cast<double>(k + 1), chart.x_categories[k]);
    }
    return ticks;
  }
  std::vector<double> at;
  if (chart.log_x) {
    const double base = chart.log2_x ? 2 : 10;
    for (double t =
             std::pow(base, std::floor(std::log(x_low) / std::log(base)));
         t <= x_high * (1 + 1e-9); t *= base) {
      if (t >= x_low * (1 - 1e-9)) at.push_back(t);
    }
  } else {
    at = Ticks(x_low, x_high);
  }
  for (double t : at)
    ticks.emplace_back(t, chart.bytes_x ? Bytes(t) : Number(t));
  return ticks;
}

// A text's box as drawn at (x, baseline y) with `anchor` ("start", "end"),
// its width estimated from a 12 px sans-serif's average advance.
struct TextBox {
  double left, top, right, bottom;
  bool Overlaps(const TextBox& o) const {
    return left < o.right && o.left < right && top < o.bottom && o.top < bottom;
  }
};
TextBox BoxOf(double x, double y, const std::string& text, bool end_anchor) {
  const double width = 7.0 * static_cast<double>(text.size());
  const double left = end_anchor ? x - width : x;
  return {left, y - 12, left + width, y + 3};
}

}  // namespace

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string RenderXyChart(const XyChart& chart) {
  double x_low = INFINITY, x_high = -INFINITY, y_high = -INFINITY, y_low = 0;
  for (const auto& s : chart.series) {
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (chart.log_x && s.x[i] <= 0) continue;
      x_low = std::min(x_low, s.x[i]);
      x_high = std::max(x_high, s.x[i]);
      y_high = std::max(y_high, s.y[i]);
      y_low = std::min(y_low, s.y[i]);
    }
  }
  if (chart.reference) y_high = std::max(y_high, chart.reference->first);
  if (!std::isfinite(x_low)) x_low = 0, x_high = 1, y_high = 1;
  if (x_high <= x_low) x_high = x_low + 1;
  if (y_high <= y_low) y_high = y_low + 1;
  y_high *= 1.05;
  if (!chart.x_categories.empty()) {
    x_low = 0.5;
    x_high = static_cast<double>(chart.x_categories.size()) + 0.5;
  }
  const Frame f{x_low, x_high, y_low, y_high, chart.log_x};
  const std::vector<XTick> x_ticks = XTicks(chart, x_low, x_high);
  std::string svg = Open(chart.title);
  if (chart.shade) {
    const double a = f.X(std::max(chart.shade->first, x_low));
    const double b = f.X(std::min(chart.shade->second, x_high));
    svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" "
        "fill=\"#f3e3c3\"/>"
        "<text x=\"{:.1f}\" y=\"{}\" fill=\"#8a6d2f\">{}</text>\n",
        a, kTop, std::max(0.0, b - a), kHeight - kTop - kBottom, a + 4,
        kTop + 14, XmlEscape(chart.shade_label));
  }
  svg += Axes(f, chart.x_label, chart.y_label, x_ticks, Ticks(y_low, y_high));
  for (size_t k = 0; k < chart.series.size(); ++k) {
    const SvgSeries& s = chart.series[k];
    const char* color = kColors[k % 8];
    if (s.line) {
      std::string points;
      for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
        if (chart.log_x && s.x[i] <= 0) continue;
        points += fmt::format("{:.1f},{:.1f} ", f.X(s.x[i]), f.Y(s.y[i]));
      }
      svg += fmt::format(
          "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" "
          "stroke-width=\"1.5\"/>\n",
          points, color);
      if (s.x.size() <= 60) {  // few points: each one marked
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
          if (chart.log_x && s.x[i] <= 0) continue;
          svg += fmt::format(
              "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>",
              f.X(s.x[i]), f.Y(s.y[i]), color);
        }
        svg += "\n";
      }
    } else {
      for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
        svg += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"1.6\" fill=\"{}\" "
            "fill-opacity=\"0.6\"/>",
            f.X(s.x[i]), f.Y(s.y[i]), color);
      }
      svg += "\n";
    }
    if (s.median) {
      const double from =
          s.median_span ? f.X(std::clamp(s.median_span->first, x_low, x_high))
                        : kLeft;
      const double to =
          s.median_span ? f.X(std::clamp(s.median_span->second, x_low, x_high))
                        : kWidth - kRight;
      svg += fmt::format(
          "<line x1=\"{0:.1f}\" x2=\"{1:.1f}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" "
          "stroke=\"{3}\" stroke-width=\"1.5\" stroke-dasharray=\"8 4\"/>\n",
          from, to, f.Y(*s.median), color);
    }
    // The legend, right of the plot: the name, and its median when drawn.
    const std::string name =
        s.median ? fmt::format("{} (median {})", s.name, Number(*s.median))
                 : s.name;
    svg += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n",
        kWidth - kRight + 12, kTop + 8 + 16 * k, color, kWidth - kRight + 27,
        kTop + 17 + 16 * k,
        XmlEscape(name.size() > 28 ? name.substr(0, 27) + "…" : name));
  }
  // The markers' labels stand at the top of the plot; the reference's at
  // the right end of its line, above it, or below it where a marker's label
  // is.
  // Each marker's label on the first of three rows where it overlaps no
  // earlier one (none where all three are taken: the line alone).
  struct MarkerLabel {
    double x;
    std::optional<double> baseline;
  };
  std::vector<TextBox> marker_labels;
  std::vector<MarkerLabel> placed;
  for (const auto& [x, label] : chart.markers) {
    if (x < x_low || x > x_high) continue;
    MarkerLabel at{f.X(x), std::nullopt};
    for (double row : {kTop + 30, kTop + 44, kTop + 58}) {
      const TextBox box = BoxOf(at.x + 4, row, label, false);
      if (std::none_of(marker_labels.begin(), marker_labels.end(),
                       [&box](const TextBox& m) { return box.Overlaps(m); })) {
        at.baseline = row;
        marker_labels.push_back(box);
        break;
      }
    }
    placed.push_back(at);
  }
  if (chart.reference) {
    const double y = f.Y(chart.reference->first);
    const std::string& label = chart.reference->second;
    // Right end above, below, then left end above, below: the first place
    // clear of every marker's label.
    struct Place {
      double x, baseline;
      bool end_anchor;
    };
    const Place places[] = {{kWidth - kRight - 6, y - 5, true},
                            {kWidth - kRight - 6, y + 15, true},
                            {kLeft + 6, y - 5, false},
                            {kLeft + 6, y + 15, false}};
    Place at = places[0];
    for (const Place& place : places) {
      const TextBox box =
          BoxOf(place.x, place.baseline, label, place.end_anchor);
      if (std::none_of(marker_labels.begin(), marker_labels.end(),
                       [&box](const TextBox& m) { return box.Overlaps(m); })) {
        at = place;
        break;
      }
    }
    svg += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" "
        "stroke=\"black\" stroke-dasharray=\"6 3\"/><text x=\"{3}\" "
        "y=\"{4:.1f}\" text-anchor=\"{5}\">{6}</text>\n",
        kLeft, kWidth - kRight, y, at.x, at.baseline,
        at.end_anchor ? "end" : "start", XmlEscape(label));
  }
  size_t k = 0;
  for (const auto& [x, label] : chart.markers) {
    if (x < x_low || x > x_high) continue;
    const MarkerLabel& at = placed[k++];
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" "
        "stroke=\"#b33d3d\" stroke-dasharray=\"4 3\"><title>{3}</title>"
        "</line>\n",
        at.x, kTop, kHeight - kBottom, XmlEscape(label));
    if (at.baseline) {
      svg += fmt::format(
          "<text x=\"{:.1f}\" y=\"{}\" fill=\"#b33d3d\">{}</text>\n", at.x + 4,
          *at.baseline, XmlEscape(label));
    }
  }
  return svg + "</svg>\n";
}

std::string RenderBoxChart(const std::string& title, const std::string& x_label,
                           const std::string& y_label,
                           const std::vector<SvgBox>& boxes) {
  double y_low = 0, y_high = 1;
  for (const auto& b : boxes) {
    y_high = std::max(y_high, b.upper_whisker);
    for (double o : b.outliers)
      y_high = std::max(y_high, o), y_low = std::min(y_low, o);
  }
  y_high *= 1.05;
  const Frame f{0, static_cast<double>(std::max<size_t>(1, boxes.size())),
                y_low, y_high, false};
  std::string svg =
      Open(title) + Axes(f, x_label, y_label, {}, Ticks(y_low, y_high));
  for (size_t k = 0; k < boxes.size(); ++k) {
    const SvgBox& b = boxes[k];
    const double center = f.X(k + 0.5);
    const double half = std::min(40.0, (f.X(1) - f.X(0)) * 0.3);
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\" "
        "stroke=\"#333\"/>"
        "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{3:.1f}\" y2=\"{4:.1f}\" "
        "stroke=\"#333\"/>"
        "<rect x=\"{5:.1f}\" y=\"{3:.1f}\" width=\"{6:.1f}\" "
        "height=\"{7:.1f}\" "
        "fill=\"#cfe0f3\" stroke=\"#2f6fb0\"/>"
        "<line x1=\"{5:.1f}\" x2=\"{8:.1f}\" y1=\"{9:.1f}\" y2=\"{9:.1f}\" "
        "stroke=\"#2f6fb0\" "
        "stroke-width=\"2\"/>",
        center, f.Y(b.lower_whisker), f.Y(b.q1), f.Y(b.q3),
        f.Y(b.upper_whisker), center - half, 2 * half, f.Y(b.q1) - f.Y(b.q3),
        center + half, f.Y(b.median));
    for (double o : b.outliers) {
      svg += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"none\" "
          "stroke=\"#b33d3d\"/>",
          center, f.Y(o));
    }
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        center, kHeight - kBottom + kTickBaseline, XmlEscape(b.name));
  }
  return svg + "</svg>\n";
}

}  // namespace flashmark
