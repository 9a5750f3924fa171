#include "report/telemetry_text.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "analysis/quantiles.h"
#include "common/units.h"
#include "document/json_format.h"

namespace flashmark {
namespace {

using nlohmann::json;

template <typename T>
json Optional(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

// The median of the values present; none when none is.
std::optional<double> MedianOf(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  return SummarizeSeries(std::move(values)).median;
}

std::string Cell(const std::optional<double>& value, const char* format) {
  return value ? fmt::format(fmt::runtime(format), *value) : "-";
}

// A rating as vendors state it: decimal terabytes ("600 TB").
std::string Terabytes(uint64_t bytes) {
  return fmt::format("{:.4g} TB", static_cast<double>(bytes) / 1e12);
}

}  // namespace

void PrintTelemetry(const TelemetrySummary& summary, std::ostream& out) {
  for (const DiskSummary& d : summary.disks) {
    out << fmt::format(
        "  device {}{}: busy {:.0f} % (p5..p95 {:.0f}..{:.0f}), queue {:.2f}, "
        "await {:.3f} ms; read {:.1f} MiB/s, write {:.1f} MiB/s\n",
        d.device, d.member_of.empty() ? "" : " (member of " + d.member_of + ")",
        d.utilisation_percent.median, d.utilisation_percent.p5,
        d.utilisation_percent.p95, d.queue_size.median, d.await_ms.median,
        d.read_mibs.median, d.write_mibs.median);
  }
  std::vector<std::string> ratios;
  if (summary.device_write_ratio) {
    ratios.push_back(fmt::format("wrote {:.2f}x", *summary.device_write_ratio));
  }
  if (summary.device_read_ratio) {
    ratios.push_back(fmt::format("read {:.2f}x", *summary.device_read_ratio));
  }
  if (!ratios.empty()) {
    out << fmt::format("         the device {} what flashmark did\n",
                       fmt::join(ratios, ", "));
  }
  if (summary.has_cpu) {
    out << fmt::format(
        "  cpu    machine user {:.0f} %, system {:.0f} %, iowait {:.0f} %, "
        "softirq {:.0f} %; flashmark {:.0f} % of one CPU{}\n",
        summary.cpu_user_percent.median, summary.cpu_system_percent.median,
        summary.cpu_iowait_percent.median, summary.cpu_softirq_percent.median,
        summary.self_cpu_percent.median,
        summary.self_cpu_us_per_io
            ? fmt::format(", {:.2f} us per IO", *summary.self_cpu_us_per_io)
            : "");
  }
  if (summary.temperature_max) {
    out << fmt::format("  temp   {:.0f}..{:.0f} C\n", *summary.temperature_min,
                       *summary.temperature_max);
  }
  for (const HealthChange& h : summary.health) {
    std::vector<std::string> parts;
    if (h.host_bytes_written) {
      parts.push_back("host wrote " + FormatBytes(*h.host_bytes_written));
    }
    if (h.media_bytes_written) {
      parts.push_back("media " + FormatBytes(*h.media_bytes_written));
    }
    if (h.write_amplification) {
      parts.push_back(
          fmt::format("write amplification {:.2f}", *h.write_amplification));
    }
    if (h.throttle_events) {
      parts.push_back(
          fmt::format("{} thermal throttle events", *h.throttle_events));
    }
    if (h.warning_temperature_minutes && *h.warning_temperature_minutes > 0) {
      parts.push_back(fmt::format("{} min above the warning temperature",
                                  *h.warning_temperature_minutes));
    }
    if (h.percentage_used_start && h.percentage_used_end) {
      parts.push_back(fmt::format("rated wear used {} -> {} %",
                                  *h.percentage_used_start,
                                  *h.percentage_used_end));
    }
    if (parts.empty()) parts.push_back("no counters to compare");
    out << fmt::format("  smart  {} during the run: {}\n", h.device,
                       fmt::join(parts, ", "));
  }
  for (const DiskWriteAmplification& w : summary.write_amplification) {
    if (!w.overall) {
      out << fmt::format(
          "  waf    {}: {} SMART reads, the media counter ({}) did not move "
          "enough between them: no WAF over time\n",
          w.device, w.readings, w.counter);
      continue;
    }
    std::vector<double> values;
    for (const WafWindow& window : w.windows) values.push_back(window.waf);
    const SeriesSummary spread = SummarizeSeries(values);
    out << fmt::format(
        "  waf    {}: {:.2f} over {} windows (per window median {:.2f}, "
        "{:.2f}..{:.2f}) from {}: {}\n",
        w.device, *w.overall, w.windows.size(), spread.median, spread.min,
        spread.max, w.counter, w.basis);
  }
  for (const std::string& note : summary.write_amplification_notes) {
    out << "  waf    " << note << "\n";
  }
}

std::string EnduranceLine(const TelemetrySummary& summary,
                          const std::string& tbw_tag) {
  const auto rated = ParseCapacity(tbw_tag);
  if (!rated.ok() || *rated == 0) {
    return fmt::format(
        "endurance tag tbw={} is not a size (try tbw=600T): no endurance "
        "figure",
        tbw_tag);
  }
  const Endurance e = EnduranceOf(summary, *rated);
  if (!e.host_bytes) {
    return fmt::format(
        "endurance rated {} written (tag tbw={}); no host-write count for "
        "this run",
        Terabytes(*rated), tbw_tag);
  }
  return fmt::format(
      "endurance the host wrote {} ({}) during the run: {:.4g} % of the "
      "rated {} written (tag tbw={})",
      FormatBytes(*e.host_bytes), e.host_source, *e.percent_of_rating,
      Terabytes(*rated), tbw_tag);
}

json EnduranceJson(const TelemetrySummary& summary,
                   const std::string& tbw_tag) {
  const auto rated = ParseCapacity(tbw_tag);
  if (!rated.ok() || *rated == 0) {
    return {{"tbw_tag", tbw_tag},
            {"note", "the tag tbw is not a size: no endurance figure"}};
  }
  const Endurance e = EnduranceOf(summary, *rated);
  return {{"tbw_tag", tbw_tag},
          {"rated_bytes", e.rated_bytes},
          {"host_bytes", Optional(e.host_bytes)},
          {"host_source", e.host_source.empty() ? json() : json(e.host_source)},
          {"percent_of_rating", Optional(e.percent_of_rating)}};
}

json WriteAmplificationJson(const TelemetrySummary& summary) {
  json disks = json::array();
  for (const DiskWriteAmplification& w : summary.write_amplification) {
    json windows = json::array();
    for (const WafWindow& window : w.windows) {
      windows.push_back({{"start_seconds", window.start_seconds},
                         {"end_seconds", window.end_seconds},
                         {"host", window.host},
                         {"media", window.media},
                         {"waf", window.waf}});
    }
    disks.push_back({{"device", w.device},
                     {"counter", w.counter},
                     {"basis", w.basis},
                     {"readings", w.readings},
                     {"min_steps_per_window", kWafMinSteps},
                     {"overall", Optional(w.overall)},
                     {"windows", windows}});
  }
  return {{"disks", disks}, {"notes", summary.write_amplification_notes}};
}

json TelemetryJson(const TelemetrySummary& summary) {
  if (summary.empty()) return nullptr;
  json disks = json::array();
  for (const DiskSummary& d : summary.disks) {
    disks.push_back(
        {{"device", d.device},
         {"member_of", d.member_of.empty() ? json(nullptr) : json(d.member_of)},
         {"read_bytes", d.read_bytes},
         {"write_bytes", d.write_bytes},
         {"utilisation_percent", ToJson(d.utilisation_percent)},
         {"queue_size", ToJson(d.queue_size)},
         {"await_ms", ToJson(d.await_ms)},
         {"read_mibs", ToJson(d.read_mibs)},
         {"write_mibs", ToJson(d.write_mibs)}});
  }
  json health = json::array();
  for (const HealthChange& h : summary.health) {
    health.push_back(
        {{"device", h.device},
         {"host_bytes_written", Optional(h.host_bytes_written)},
         {"media_bytes_written", Optional(h.media_bytes_written)},
         {"write_amplification", Optional(h.write_amplification)},
         {"throttle_events", Optional(h.throttle_events)},
         {"warning_temperature_minutes",
          Optional(h.warning_temperature_minutes)},
         {"percentage_used_start", Optional(h.percentage_used_start)},
         {"percentage_used_end", Optional(h.percentage_used_end)}});
  }
  json out = {{"disks", disks},
              {"device_write_ratio", Optional(summary.device_write_ratio)},
              {"device_read_ratio", Optional(summary.device_read_ratio)},
              {"temperature_min", Optional(summary.temperature_min)},
              {"temperature_max", Optional(summary.temperature_max)},
              {"health", health},
              {"write_amplification", WriteAmplificationJson(summary)}};
  if (summary.has_cpu) {
    out["cpu"] = {{"user_percent", ToJson(summary.cpu_user_percent)},
                  {"system_percent", ToJson(summary.cpu_system_percent)},
                  {"iowait_percent", ToJson(summary.cpu_iowait_percent)},
                  {"softirq_percent", ToJson(summary.cpu_softirq_percent)},
                  {"self_percent_of_one_cpu", ToJson(summary.self_cpu_percent)},
                  {"self_us_per_io", Optional(summary.self_cpu_us_per_io)}};
  }
  return out;
}

std::vector<TelemetryComparisonRow> CompareTelemetry(
    const std::vector<std::string>& names,
    const std::vector<std::vector<TelemetrySummary>>& summaries) {
  std::vector<TelemetryComparisonRow> rows;
  bool any = false;
  for (size_t u = 0; u < names.size() && u < summaries.size(); ++u) {
    std::vector<double> busy, queue, await, ratio, cpu, amplification;
    for (const TelemetrySummary& s : summaries[u]) {
      if (!s.disks.empty()) {  // the first target's device
        busy.push_back(s.disks[0].utilisation_percent.median);
        queue.push_back(s.disks[0].queue_size.median);
        await.push_back(s.disks[0].await_ms.median);
      }
      if (s.device_write_ratio) ratio.push_back(*s.device_write_ratio);
      if (s.self_cpu_us_per_io) cpu.push_back(*s.self_cpu_us_per_io);
      if (const auto waf = RunWriteAmplification(s)) {
        amplification.push_back(*waf);
      }
    }
    TelemetryComparisonRow row{names[u],
                               MedianOf(busy),
                               MedianOf(queue),
                               MedianOf(await),
                               MedianOf(ratio),
                               MedianOf(cpu),
                               MedianOf(amplification)};
    any |= row.busy_percent || row.self_cpu_us_per_io;
    rows.push_back(std::move(row));
  }
  if (!any) rows.clear();
  return rows;
}

void PrintTelemetryComparison(const std::vector<TelemetryComparisonRow>& rows,
                              std::ostream& out) {
  if (rows.empty()) return;
  out << fmt::format("  {:<16} {:>7} {:>7} {:>9} {:>14} {:>11} {:>6}\n",
                     "device and CPU", "busy %", "queue", "await ms",
                     "device writes", "CPU us/IO", "WAF");
  for (const TelemetryComparisonRow& row : rows) {
    out << fmt::format(
        "  {:<16} {:>7} {:>7} {:>9} {:>14} {:>11} {:>6}\n", row.name,
        Cell(row.busy_percent, "{:.0f}"), Cell(row.queue_size, "{:.2f}"),
        Cell(row.await_ms, "{:.3f}"), Cell(row.device_write_ratio, "{:.2f}x"),
        Cell(row.self_cpu_us_per_io, "{:.2f}"),
        Cell(row.write_amplification, "{:.2f}"));
  }
}

json TelemetryComparisonJson(const std::vector<TelemetryComparisonRow>& rows) {
  if (rows.empty()) return nullptr;
  json out = json::array();
  for (const TelemetryComparisonRow& row : rows) {
    out.push_back({{"name", row.name},
                   {"busy_percent", Optional(row.busy_percent)},
                   {"queue_size", Optional(row.queue_size)},
                   {"await_ms", Optional(row.await_ms)},
                   {"device_write_ratio", Optional(row.device_write_ratio)},
                   {"self_cpu_us_per_io", Optional(row.self_cpu_us_per_io)},
                   {"write_amplification", Optional(row.write_amplification)}});
  }
  return out;
}

}  // namespace flashmark
