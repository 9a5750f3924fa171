#include "document/telemetry_format.h"

#include <cmath>

namespace flashmark {
namespace {

using nlohmann::json;

template <typename T>
T NumberOr(const json& value, const char* key, T fallback) {
  const auto found = value.find(key);
  return found != value.end() && found->is_number() ? found->get<T>()
                                                    : fallback;
}

// CPU seconds to the microsecond getrusage counts in.
double Micro(double seconds) { return std::round(seconds * 1e6) / 1e6; }

}  // namespace

json ToJson(const IntervalTelemetry& telemetry) {
  json out = json::object();
  if (!telemetry.disks.empty()) {
    json disks = json::array();
    for (const DiskActivity& d : telemetry.disks) {
      json disk = {{"device", d.device},
                   {"reads", d.reads},
                   {"reads_merged", d.reads_merged},
                   {"read_bytes", d.read_bytes},
                   {"read_ms", d.read_ms},
                   {"writes", d.writes},
                   {"writes_merged", d.writes_merged},
                   {"write_bytes", d.write_bytes},
                   {"write_ms", d.write_ms},
                   {"busy_ms", d.busy_ms},
                   {"queue_ms", d.queue_ms}};
      if (!d.member_of.empty()) disk["member_of"] = d.member_of;
      disks.push_back(std::move(disk));
    }
    out["disks"] = std::move(disks);
  }
  if (telemetry.cpu) {
    const CpuActivity& c = *telemetry.cpu;
    out["cpu"] = {{"user", Micro(c.user)},
                  {"system", Micro(c.system)},
                  {"iowait", Micro(c.iowait)},
                  {"irq", Micro(c.irq)},
                  {"softirq", Micro(c.softirq)},
                  {"steal", Micro(c.steal)},
                  {"idle", Micro(c.idle)},
                  {"self_user", Micro(c.self_user)},
                  {"self_system", Micro(c.self_system)}};
  }
  if (telemetry.temperature_celsius) {
    out["temperature_celsius"] = *telemetry.temperature_celsius;
  }
  if (!telemetry.write_counters.empty()) {
    json readings = json::array();
    for (const WriteCounterReading& r : telemetry.write_counters) {
      json reading = {{"device", r.device}, {"host_bytes", r.host_bytes}};
      if (r.media_bytes) {
        reading["media_bytes"] = *r.media_bytes;
        reading["media_step_bytes"] = r.media_step_bytes;
      }
      if (r.host_pages) reading["host_pages"] = *r.host_pages;
      if (r.background_pages) reading["background_pages"] = *r.background_pages;
      if (!r.counter.empty()) reading["counter"] = r.counter;
      readings.push_back(std::move(reading));
    }
    out["write_counters"] = std::move(readings);
  }
  return out;
}

IntervalTelemetry TelemetryFromJson(const json& value) {
  IntervalTelemetry telemetry;
  if (!value.is_object()) return telemetry;
  if (const auto disks = value.find("disks");
      disks != value.end() && disks->is_array()) {
    for (const json& d : *disks) {
      if (!d.is_object() || !d.contains("device") || !d["device"].is_string())
        continue;
      DiskActivity disk;
      disk.device = d["device"].get<std::string>();
      if (d.contains("member_of") && d["member_of"].is_string())
        disk.member_of = d["member_of"].get<std::string>();
      disk.reads = NumberOr<uint64_t>(d, "reads", 0);
      disk.reads_merged = NumberOr<uint64_t>(d, "reads_merged", 0);
      disk.read_bytes = NumberOr<uint64_t>(d, "read_bytes", 0);
      disk.read_ms = NumberOr<uint64_t>(d, "read_ms", 0);
      disk.writes = NumberOr<uint64_t>(d, "writes", 0);
      disk.writes_merged = NumberOr<uint64_t>(d, "writes_merged", 0);
      disk.write_bytes = NumberOr<uint64_t>(d, "write_bytes", 0);
      disk.write_ms = NumberOr<uint64_t>(d, "write_ms", 0);
      disk.busy_ms = NumberOr<uint64_t>(d, "busy_ms", 0);
      disk.queue_ms = NumberOr<uint64_t>(d, "queue_ms", 0);
      telemetry.disks.push_back(std::move(disk));
    }
  }
  if (const auto cpu = value.find("cpu");
      cpu != value.end() && cpu->is_object()) {
    CpuActivity c;
    c.user = NumberOr(*cpu, "user", 0.0);
    c.system = NumberOr(*cpu, "system", 0.0);
    c.iowait = NumberOr(*cpu, "iowait", 0.0);
    c.irq = NumberOr(*cpu, "irq", 0.0);
    c.softirq = NumberOr(*cpu, "softirq", 0.0);
    c.steal = NumberOr(*cpu, "steal", 0.0);
    c.idle = NumberOr(*cpu, "idle", 0.0);
    c.self_user = NumberOr(*cpu, "self_user", 0.0);
    c.self_system = NumberOr(*cpu, "self_system", 0.0);
    telemetry.cpu = c;
  }
  if (const auto t = value.find("temperature_celsius");
      t != value.end() && t->is_number()) {
    telemetry.temperature_celsius = t->get<double>();
  }
  if (const auto readings = value.find("write_counters");
      readings != value.end() && readings->is_array()) {
    for (const json& r : *readings) {
      if (!r.is_object() || !r.contains("device") || !r["device"].is_string())
        continue;
      WriteCounterReading reading;
      reading.device = r["device"].get<std::string>();
      reading.host_bytes = NumberOr<uint64_t>(r, "host_bytes", 0);
      if (r.contains("media_bytes") && r["media_bytes"].is_number_unsigned()) {
        reading.media_bytes = r["media_bytes"].get<uint64_t>();
        reading.media_step_bytes = NumberOr<uint64_t>(r, "media_step_bytes", 0);
      }
      if (r.contains("host_pages") && r["host_pages"].is_number_unsigned())
        reading.host_pages = r["host_pages"].get<uint64_t>();
      if (r.contains("background_pages") &&
          r["background_pages"].is_number_unsigned())
        reading.background_pages = r["background_pages"].get<uint64_t>();
      if (r.contains("counter") && r["counter"].is_string())
        reading.counter = r["counter"].get<std::string>();
      telemetry.write_counters.push_back(std::move(reading));
    }
  }
  return telemetry;
}

}  // namespace flashmark
