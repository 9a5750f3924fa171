#include "report/svg_chart.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

namespace flashmark {
namespace {

// A drawn text: its anchor point, anchor and content.
struct Text {
  double x = 0, y = 0;
  bool end_anchor = false;
  std::string text;
  bool middle_anchor = false;
};

std::vector<Text> Texts(const std::string& svg) {
  std::vector<Text> texts;
  const std::regex pattern(
      R"re(<text x="([-0-9.]+)" y="([-0-9.]+)"([^>]*)>([^<]*)</text>)re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), pattern);
       it != std::sregex_iterator(); ++it) {
    texts.push_back({std::stod((*it)[1]), std::stod((*it)[2]),
                     (*it)[3].str().find("end") != std::string::npos, (*it)[4],
                     (*it)[3].str().find("middle") != std::string::npos});
  }
  return texts;
}

const Text* Find(const std::vector<Text>& texts, const std::string& text) {
  for (const Text& t : texts) {
    if (t.text == text) return &t;
  }
  return nullptr;
}

// Whether two 12 px texts would overlap (7 px a character, 15 px high).
bool Overlap(const Text& a, const Text& b) {
  const auto left = [](const Text& t) {
    const double width = 7.0 * static_cast<double>(t.text.size());
    return t.end_anchor ? t.x - width : t.middle_anchor ? t.x - width / 2 : t.x;
  };
  const double al = left(a), bl = left(b);
  const double ar = al + 7.0 * a.text.size(), br = bl + 7.0 * b.text.size();
  return al < br && bl < ar && a.y - 12 < b.y + 3 && b.y - 12 < a.y + 3;
}

TEST(SvgChart, CategoriesNameTheTicks) {
  XyChart chart;
  chart.title = "IOPS by bs";
  chart.x_label = "bs";
  chart.x_categories = {"4k", "8k", "16k", "1m"};
  SvgSeries series{
      "read-pct=100", {1, 2, 3, 4}, {900, 800, 500, 60}, true, std::nullopt};
  chart.series.push_back(series);
  const auto texts = Texts(RenderXyChart(chart));
  std::vector<std::string> ticks;
  for (const Text& t : texts) {
    if (t.y > 340 && t.y < 355) ticks.push_back(t.text);
  }
  EXPECT_EQ(ticks, (std::vector<std::string>{"4k", "8k", "16k", "1m"}))
      << "one tick per block size, named, no 1.5 or 2.5";
  // Evenly spaced with half a step either side: no point on the frame.
  const Text* first = Find(texts, "4k");
  const Text* last = Find(texts, "1m");
  ASSERT_TRUE(first && last);
  EXPECT_GT(first->x, 70 + 10);
  EXPECT_LT(last->x, 900 - 190 - 10);
}

// A size axis that starts at its first tick (the PTS write saturation's
// bytes written): that tick's label, centred on the y axis, clears the
// y axis' "0" beside it.
TEST(SvgChart, TheFirstXTickClearsTheLowestYTick) {
  XyChart chart;
  chart.title = "over written";
  chart.x_label = "written";
  chart.bytes_x = true;
  chart.series.push_back(SvgSeries{
      "iops", {0.0, 500.0 * (1 << 20)}, {0, 900}, true, std::nullopt});
  const auto texts = Texts(RenderXyChart(chart));
  const Text* zero = Find(texts, "0");
  ASSERT_NE(zero, nullptr);
  for (const Text& t : texts) {
    if (&t == zero) continue;
    EXPECT_FALSE(Overlap(*zero, t)) << t.text;
  }
}

// The steady-state convergence plot: the window's average as a reference
// line and the window's first round as a marker; their labels never
// overlap wherever the window starts.
TEST(SvgChart, ReferenceLabelClearsTheMarkerLabel) {
  for (double start : {1.0, 2.0, 3.0, 4.0, 5.0}) {
    XyChart chart;
    chart.series.push_back(
        {"tracked cell", {1, 2, 3, 4, 5}, {99, 101, 100, 98, 102}, true, {}});
    chart.series.push_back(
        {"average + 10 %", {start, 5}, {110, 110}, true, {}});
    chart.reference = {100, "window average"};
    chart.markers.push_back({start, "window"});
    const auto texts = Texts(RenderXyChart(chart));
    const Text* reference = Find(texts, "window average");
    const Text* marker = Find(texts, "window");
    ASSERT_TRUE(reference && marker);
    EXPECT_FALSE(Overlap(*reference, *marker))
        << "window from round " << start << ": reference at " << reference->x
        << "," << reference->y << ", marker at " << marker->x << ","
        << marker->y;
  }
}

// A PTS series test's segments or a run's changes: markers close together
// with long labels stagger onto rows, and never overlap; a label that finds
// no row is left out, its text kept in the line's tooltip.
TEST(SvgChart, MarkerLabelsNeverOverlap) {
  XyChart chart;
  chart.series.push_back({"IOPS", {0, 100}, {5000, 5200}, true, {}});
  for (int k = 1; k <= 8; ++k) {
    chart.markers.push_back(
        {k * 10.0, "thinktime=2s time=3s hir=wait " + std::to_string(k)});
  }
  const std::string svg = RenderXyChart(chart);
  std::vector<Text> labels;
  for (const Text& t : Texts(svg)) {
    if (t.text.starts_with("thinktime")) labels.push_back(t);
  }
  EXPECT_GE(labels.size(), 3u);
  for (size_t i = 0; i < labels.size(); ++i) {
    for (size_t j = i + 1; j < labels.size(); ++j) {
      EXPECT_FALSE(Overlap(labels[i], labels[j]))
          << labels[i].text << " and " << labels[j].text;
    }
  }
  EXPECT_NE(svg.find("<title>thinktime=2s time=3s hir=wait 8</title>"),
            std::string::npos);
}

}  // namespace
}  // namespace flashmark
