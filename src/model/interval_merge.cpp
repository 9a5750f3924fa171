#include "model/interval_merge.h"

#include <algorithm>

namespace flashmark {

namespace {

// What any two intervals add up to: counters summed, histograms merged.
void AddMeasures(IntervalSample& total, const IntervalSample& part) {
  total.partial = total.partial || part.partial;
  AddCounters(total, part);
  total.read_latency.Merge(part.read_latency);
  total.write_latency.Merge(part.write_latency);
  total.schedule_latency.Merge(part.schedule_latency);
  total.commit_latency.Merge(part.commit_latency);
  total.latency_split.Merge(part.latency_split);
}

}  // namespace

void MergeInterval(IntervalSample& total, const IntervalSample& part) {
  AddMeasures(total, part);
  total.spans = std::max(total.spans, part.spans);
  MergeTelemetry(total.telemetry, part.telemetry);
}

void AppendInterval(IntervalSample& total, const IntervalSample& later) {
  AddMeasures(total, later);
  total.end_ns = later.end_ns;
  total.spans += later.spans;
  AddTelemetry(total.telemetry, later.telemetry);
}

void AddTelemetry(IntervalTelemetry& total, const IntervalTelemetry& later) {
  total.write_counters.insert(total.write_counters.end(),
                              later.write_counters.begin(),
                              later.write_counters.end());
  for (const DiskActivity& disk : later.disks) {
    auto known = std::find_if(
        total.disks.begin(), total.disks.end(),
        [&disk](const DiskActivity& d) { return d.device == disk.device; });
    if (known == total.disks.end()) {
      total.disks.push_back(disk);
      continue;
    }
    known->reads += disk.reads;
    known->reads_merged += disk.reads_merged;
    known->read_bytes += disk.read_bytes;
    known->read_ms += disk.read_ms;
    known->writes += disk.writes;
    known->writes_merged += disk.writes_merged;
    known->write_bytes += disk.write_bytes;
    known->write_ms += disk.write_ms;
    known->busy_ms += disk.busy_ms;
    known->queue_ms += disk.queue_ms;
  }
  if (later.cpu) {
    CpuActivity& sum = total.cpu ? *total.cpu : total.cpu.emplace();
    const CpuActivity& c = *later.cpu;
    sum.user += c.user;
    sum.system += c.system;
    sum.iowait += c.iowait;
    sum.irq += c.irq;
    sum.softirq += c.softirq;
    sum.steal += c.steal;
    sum.idle += c.idle;
    sum.self_user += c.self_user;
    sum.self_system += c.self_system;
  }
  if (later.temperature_celsius) {
    total.temperature_celsius = later.temperature_celsius;
  }
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
