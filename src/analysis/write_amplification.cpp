#include "analysis/write_amplification.h"

#include <fmt/format.h>

#include <map>

namespace flashmark {

std::vector<WafWindow> WafWindows(const std::vector<WafPoint>& points,
                                  double min_steps) {
  std::vector<WafWindow> windows;
  if (points.empty()) return windows;
  WafPoint from = points.front();
  for (size_t k = 1; k < points.size(); ++k) {
    const WafPoint& at = points[k];
    if (at.host < from.host || at.media < from.media) {
      from = at;  // a counter went backwards (reset, another drive)
      continue;
    }
    const double host = at.host - from.host;
    const double media = at.media - from.media;
    const double step = at.media_step > 0 ? at.media_step : 1;
    if (host <= 0 || media <= 0 || media < min_steps * step) continue;
    windows.push_back({from.seconds, at.seconds, host, media, media / host});
    from = at;
  }
  return windows;
}

namespace {

struct DiskPoints {
  std::string counter;
  bool pages = false;
  std::vector<WafPoint> points;
};

}  // namespace

std::vector<DiskWriteAmplification> WriteAmplificationOverTime(
    const RunResult& run) {
  std::vector<std::string> order;
  std::map<std::string, DiskPoints> disks;
  for (const IntervalSample& sample : run.intervals) {
    for (const WriteCounterReading& r : sample.telemetry.write_counters) {
      WafPoint point;
      point.seconds = sample.end_ns / 1e9;
      bool pages = false;
      if (r.media_bytes) {
        point.host = static_cast<double>(r.host_bytes);
        point.media = static_cast<double>(*r.media_bytes);
        point.media_step = static_cast<double>(r.media_step_bytes);
      } else if (r.host_pages && r.background_pages) {
        pages = true;
        point.host = static_cast<double>(*r.host_pages);
        point.media = static_cast<double>(*r.host_pages + *r.background_pages);
      } else {
        continue;
      }
      auto [at, added] = disks.try_emplace(r.device);
      if (added) order.push_back(r.device);
      DiskPoints& disk = at->second;
      if (!disk.points.empty() && disk.pages != pages) continue;
      disk.pages = pages;
      disk.counter = r.counter;
      disk.points.push_back(point);
    }
  }
  std::vector<DiskWriteAmplification> out;
  for (const std::string& device : order) {
    const DiskPoints& disk = disks.at(device);
    DiskWriteAmplification waf;
    waf.device = device;
    waf.counter = disk.counter;
    waf.basis = disk.pages
                    ? "(host + background program pages) / host program "
                      "pages, between SMART reads"
                    : "media bytes (SMART) / host bytes written to the whole "
                      "disk (diskstats), between SMART reads";
    waf.basis += fmt::format(
        ", a window closing once the media counter moved {:g} steps",
        kWafMinSteps);
    waf.readings = disk.points.size();
    waf.windows = WafWindows(disk.points);
    double host = 0, media = 0;
    for (const WafWindow& w : waf.windows) {
      host += w.host;
      media += w.media;
    }
    if (host > 0) waf.overall = media / host;
    out.push_back(std::move(waf));
  }
  return out;
}

}  // namespace flashmark
