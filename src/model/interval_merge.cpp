#include "model/interval_merge.h"

#include <algorithm>

namespace flashmark {

void MergeInterval(IntervalSample& total, const IntervalSample& part) {
  total.partial = total.partial || part.partial;
  total.spans = std::max(total.spans, part.spans);
  AddCounters(total, part);
  total.read_latency.Merge(part.read_latency);
  total.write_latency.Merge(part.write_latency);
  total.schedule_latency.Merge(part.schedule_latency);
  MergeTelemetry(total.telemetry, part.telemetry);
}

void MergeTelemetry(IntervalTelemetry& total, const IntervalTelemetry& part) {
  for (const DiskActivity& disk : part.disks) {
    const bool known = std::any_of(
        total.disks.begin(), total.disks.end(),
        [&disk](const DiskActivity& d) { return d.device == disk.device; });
    if (!known) total.disks.push_back(disk);
  }
  if (part.cpu) {
    if (!total.cpu) {
      total.cpu = part.cpu;
    } else {
      total.cpu->self_user += part.cpu->self_user;
      total.cpu->self_system += part.cpu->self_system;
    }
  }
  if (part.temperature_celsius &&
      (!total.temperature_celsius ||
       *part.temperature_celsius > *total.temperature_celsius)) {
    total.temperature_celsius = part.temperature_celsius;
  }
}

}  // namespace flashmark
