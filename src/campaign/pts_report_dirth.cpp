// The DIRTH page's own sections: demand intensity (mean latency against
// IOPS per thread count), CPU use against the total outstanding IOs, and
// the response-time histograms at the maximum, middle and minimum IOPS,
// every figure over the steady-state window's rounds.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "analysis/latency_heatmap.h"
#include "analysis/telemetry_summary.h"
#include "campaign/pts_report_parts.h"
#include "common/units.h"
#include "model/histogram_buckets.h"
#include "model/latency_histogram.h"
#include "report/console_reporter.h"

namespace flashmark::pts_report {
namespace {

// One TC x QD point: its figures averaged over the window's rounds.
struct Point {
  int threads = 0;
  int iodepth = 0;
  double iops = 0;
  double latency_us = 0;
  std::optional<double> cpu_percent;  // user + system, the whole machine
  LatencyHistogram histogram;         // reads and writes, merged
};

// The machine's user + system CPU, in percent of all its CPU time: the
// medians over the run's full intervals (as `show` gives them); none
// without CPU telemetry.
std::optional<double> CpuPercent(const RunResult& run) {
  const TelemetrySummary telemetry = SummarizeTelemetry(run);
  if (!telemetry.has_cpu || telemetry.cpu_user_percent.count == 0) {
    return std::nullopt;
  }
  return telemetry.cpu_user_percent.median +
         telemetry.cpu_system_percent.median;
}

int IntParameter(const Cell& cell, const std::string& name) {
  return std::atoi(Parameter(*cell.stored, name).c_str());
}

std::vector<Point> WindowPoints(const std::vector<Cell>& cells, int per_round,
                                const RoundVerdict& verdict) {
  std::vector<Point> points(per_round);
  std::vector<int> runs(per_round, 0), with_cpu(per_round, 0);
  std::vector<double> cpu(per_round, 0);
  for (const Cell& cell : cells) {
    if (!InWindow(cell, verdict)) continue;
    Point& point = points[cell.position];
    point.threads = IntParameter(cell, "threads");
    point.iodepth = IntParameter(cell, "iodepth");
    point.iops += RoundMetricValue(RoundMetric::kIops, *cell.run);
    point.latency_us += RoundMetricValue(RoundMetric::kLatency, *cell.run);
    ++runs[cell.position];
    if (const auto percent = CpuPercent(*cell.run)) {
      cpu[cell.position] += *percent;
      ++with_cpu[cell.position];
    }
    for (const IntervalSample& interval : cell.run->intervals) {
      point.histogram.Merge(interval.read_latency);
      point.histogram.Merge(interval.write_latency);
    }
  }
  std::vector<Point> measured;
  for (int p = 0; p < per_round; ++p) {
    if (runs[p] == 0) continue;
    points[p].iops /= runs[p];
    points[p].latency_us /= runs[p];
    if (with_cpu[p] > 0) points[p].cpu_percent = cpu[p] / with_cpu[p];
    measured.push_back(std::move(points[p]));
  }
  return measured;
}

std::string PointName(const Point& point) {
  return fmt::format("TC{}/QD{}", point.threads, point.iodepth);
}

// One line per thread count, through `xy` of each point it gives a value
// for, in the points' order.
void LinesPerThreadCount(
    XyChart& plot, const std::vector<Point>& points,
    const std::function<std::optional<std::pair<double, double>>(const Point&)>&
        xy) {
  std::map<int, size_t> line_of;  // thread count -> series
  for (const Point& point : points) {
    const auto value = xy(point);
    if (!value) continue;
    auto [at, added] = line_of.emplace(point.threads, plot.series.size());
    if (added) {
      plot.series.push_back(
          {fmt::format("TC {}", point.threads), {}, {}, true, std::nullopt});
    }
    plot.series[at->second].x.push_back(value->first);
    plot.series[at->second].y.push_back(value->second);
  }
}

std::string DemandIntensity(const std::vector<Point>& points) {
  XyChart plot;
  plot.title = "Demand intensity: mean latency against IOPS per thread count";
  plot.x_label = "IOPS";
  plot.y_label = "mean latency (µs)";
  LinesPerThreadCount(plot, points, [](const Point& point) {
    return std::optional(std::pair(point.iops, point.latency_us));
  });
  return "<h2>Demand intensity</h2>\n" + ChartBlock(plot, "demand-intensity");
}

// CPU use (user + system, the whole machine) against TC x QD.
std::string CpuUse(const std::vector<Point>& points) {
  XyChart plot;
  plot.title = "CPU use (user + system) against the total outstanding IOs";
  plot.x_label = "total outstanding IOs (TC x QD)";
  plot.y_label = "CPU %";
  plot.log_x = true;
  plot.log2_x = true;
  LinesPerThreadCount(
      plot, points,
      [](const Point& point) -> std::optional<std::pair<double, double>> {
        if (!point.cpu_percent) return std::nullopt;
        return std::pair(static_cast<double>(point.threads) * point.iodepth,
                         *point.cpu_percent);
      });
  if (plot.series.empty()) {
    return "<h2>CPU use</h2>\n<p class=\"note\">No CPU telemetry was "
           "recorded with these runs.</p>\n";
  }
  return "<h2>CPU use</h2>\n" + ChartBlock(plot, "cpu-use");
}

// The share of IOs per latency band, in the latency heatmap's
// quarter-octave bands, each drawn at its geometric middle (in µs).
SvgSeries HistogramSeries(const std::string& name,
                          const LatencyHistogram& histogram) {
  std::map<int, uint64_t> bands;
  for (const LatencyHistogram::Bucket& bucket : histogram.buckets()) {
    bands[LatencyHeatmap::RowOf(buckets::Midpoint(bucket.index))] +=
        bucket.count;
  }
  SvgSeries series{name, {}, {}, true, std::nullopt};
  for (const auto& [band, count] : bands) {
    series.x.push_back(std::sqrt(LatencyHeatmap::RowLowerNs(band) *
                                 LatencyHeatmap::RowUpperNs(band)) /
                       1e3);
    series.y.push_back(100.0 * double(count) / double(histogram.count()));
  }
  return series;
}

// The response-time histograms at the maximum, middle (the IOPS nearest
// halfway between them) and minimum IOPS.
std::string Histograms(const std::vector<Point>& points) {
  const auto by_iops = [](const Point& a, const Point& b) {
    return a.iops < b.iops;
  };
  const Point& most = *std::max_element(points.begin(), points.end(), by_iops);
  const Point& least = *std::min_element(points.begin(), points.end(), by_iops);
  const double halfway = (most.iops + least.iops) / 2;
  const Point& middle = *std::min_element(
      points.begin(), points.end(), [halfway](const Point& a, const Point& b) {
        return std::abs(a.iops - halfway) < std::abs(b.iops - halfway);
      });
  XyChart plot;
  plot.title =
      "Response-time histograms at the maximum, middle and minimum "
      "IOPS";
  plot.x_label = "response time (µs)";
  plot.y_label = "% of IOs";
  plot.log_x = true;
  std::vector<std::vector<std::string>> rows;
  for (const auto& [label, point] :
       {std::pair<const char*, const Point*>{"maximum IOPS", &most},
        {"middle IOPS", &middle},
        {"minimum IOPS", &least}}) {
    const LatencyHistogram& h = point->histogram;
    if (h.empty()) continue;
    plot.series.push_back(
        HistogramSeries(fmt::format("{}: {}", label, PointName(*point)), h));
    rows.push_back({label, PointName(*point), Number(point->iops),
                    FormatLatency(h.Mean()), FormatLatency(h.Quantile(0.99)),
                    FormatLatency(h.Quantile(0.9999)), FormatLatency(h.Max()),
                    FormatCount(double(h.count()))});
  }
  if (rows.empty()) return "";
  return "<h2>Response times at the maximum, middle and minimum IOPS</h2>\n" +
         ChartBlock(plot, "histograms") +
         Table({"point", "TC / QD", "IOPS", "mean", "99 %", "99.99 %", "max",
                "IOs"},
               rows, "histogram-points");
}

}  // namespace

std::string DirthSections(const std::vector<Cell>& cells, int per_round,
                          const RoundVerdict& verdict) {
  if (!verdict.last_window) return "";
  const std::vector<Point> points = WindowPoints(cells, per_round, verdict);
  if (points.empty()) return "";
  return DemandIntensity(points) + CpuUse(points) + Histograms(points);
}

}  // namespace flashmark::pts_report
