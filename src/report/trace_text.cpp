#include "report/trace_text.h"

#include <fmt/format.h>

#include "common/units.h"
#include "report/console_reporter.h"
#include "report/text_escape.h"

namespace flashmark {
namespace {

std::string Share(uint64_t part, uint64_t whole) {
  return whole > 0 ? fmt::format("{:.1f} %", 100.0 * static_cast<double>(part) /
                                                 static_cast<double>(whole))
                   : "-";
}

std::string Times(const TraceTimes& t) {
  return fmt::format("p50 {}, p90 {}, p99 {}, max {}", FormatLatency(t.p50),
                     FormatLatency(t.p90), FormatLatency(t.p99),
                     FormatLatency(t.max));
}

nlohmann::json TimesJson(const TraceTimes& t) {
  return {{"count", t.count}, {"p50", t.p50}, {"p90", t.p90},
          {"p99", t.p99},     {"max", t.max}, {"mean", t.mean}};
}

// The figures of a trace with IOs: rate, mix, sizes, sequentiality,
// times, depth and processes, a line each.
std::string TraceFiguresText(const TraceSummary& s) {
  std::string out =
      fmt::format("  rate       {} IOPS, {:.2f} MiB/s ({} in all)\n",
                  FormatCount(s.iops), s.mib_per_second, FormatBytes(s.bytes));
  std::string mix;
  for (const TraceOpShare& op : s.ops) {
    mix += fmt::format("{}{} {} ({}, {})", mix.empty() ? "" : ", ",
                       TraceOpName(op.op), op.ios, Share(op.ios, s.ios),
                       FormatBytes(op.bytes));
  }
  out += "  ops        " + mix + "\n";
  std::string sizes;
  for (const TraceSizeShare& size : s.sizes) {
    sizes += fmt::format("{}{} {}", sizes.empty() ? "" : ", ",
                         FormatBytes(size.bytes), Share(size.ios, s.ios));
  }
  if (!sizes.empty()) out += "  sizes      " + sizes + "\n";
  out += fmt::format("  sequential {:.1f} % of reads and writes\n",
                     100 * s.sequential_share);
  if (s.interarrival_ns.count > 0)
    out += "  between issues  " + Times(s.interarrival_ns) + "\n";
  if (s.mean_queue_depth) {
    out += fmt::format("  queue depth     mean {:.2f}, max {}\n",
                       *s.mean_queue_depth, s.max_queue_depth);
  } else {
    out += "  queue depth     not known (the trace has no completion times)\n";
  }
  if (s.queue_ns) out += "  in the queue    " + Times(*s.queue_ns) + "\n";
  if (s.device_ns) out += "  in the device   " + Times(*s.device_ns) + "\n";
  std::string processes;
  for (const TraceProcessShare& p : s.processes) {
    if (p.pid == 0 && p.name.empty()) continue;
    processes += fmt::format("{}{} {} ({})", processes.empty() ? "" : ", ",
                             p.name.empty() ? "pid" : TerminalText(p.name),
                             p.pid, Share(p.ios, s.ios));
  }
  if (!processes.empty()) out += "  processes  " + processes + "\n";
  return out;
}

}  // namespace

std::string TraceSummaryText(const BlockIoTrace& trace, const TraceSummary& s) {
  std::string devices;
  for (const TraceDevice& d : trace.devices)
    devices += (devices.empty() ? "" : ", ") + TerminalText(d.name);
  std::string out =
      fmt::format("{} of {} ({}), {} IOs over {:.3f} s{}\n", trace.source,
                  TerminalText(trace.origin), devices, s.ios, s.seconds,
                  trace.complete ? "" : " (INCOMPLETE: see the notes)");
  out += s.ios == 0 ? "  no IO: nothing was issued to the device while it was "
                      "traced\n"
                    : TraceFiguresText(s);
  for (const std::string& note : trace.notes)
    out += "  note: " + TerminalText(note) + "\n";
  return out;
}

nlohmann::json TraceSummaryJson(const BlockIoTrace& trace,
                                const TraceSummary& s) {
  nlohmann::json devices = nlohmann::json::array();
  for (const TraceDevice& d : trace.devices)
    devices.push_back({{"name", d.name}, {"bytes", d.bytes}});
  nlohmann::json ops = nlohmann::json::object();
  for (const TraceOpShare& op : s.ops)
    ops[TraceOpName(op.op)] = {{"ios", op.ios}, {"bytes", op.bytes}};
  nlohmann::json sizes = nlohmann::json::array();
  for (const TraceSizeShare& size : s.sizes)
    sizes.push_back({{"bytes", size.bytes}, {"ios", size.ios}});
  nlohmann::json processes = nlohmann::json::array();
  for (const TraceProcessShare& p : s.processes)
    processes.push_back({{"pid", p.pid}, {"name", p.name}, {"ios", p.ios}});
  nlohmann::json doc = {
      {"source", trace.source},
      {"origin", trace.origin},
      {"start_unix_ns", trace.start_unix_ns},
      {"complete", trace.complete},
      {"notes", trace.notes},
      {"devices", std::move(devices)},
      {"ios", s.ios},
      {"bytes", s.bytes},
      {"seconds", s.seconds},
      {"iops", s.iops},
      {"mib_per_second", s.mib_per_second},
      {"ops", std::move(ops)},
      {"sizes", std::move(sizes)},
      {"sequential_share", s.sequential_share},
      {"interarrival_ns", TimesJson(s.interarrival_ns)},
      {"mean_queue_depth", s.mean_queue_depth
                               ? nlohmann::json(*s.mean_queue_depth)
                               : nlohmann::json(nullptr)},
      {"max_queue_depth", s.max_queue_depth},
      {"queue_depth_per_second", s.queue_depth_per_second},
      {"queue_ns",
       s.queue_ns ? TimesJson(*s.queue_ns) : nlohmann::json(nullptr)},
      {"device_ns",
       s.device_ns ? TimesJson(*s.device_ns) : nlohmann::json(nullptr)},
      {"processes", std::move(processes)}};
  return doc;
}

}  // namespace flashmark
