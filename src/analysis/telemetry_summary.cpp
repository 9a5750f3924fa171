#include "analysis/telemetry_summary.h"

#include <algorithm>
#include <map>

#include "analysis/quantiles.h"
#include "model/interval_merge.h"

namespace flashmark {
namespace {

constexpr double kMiB = 1048576.0;

template <typename T>
std::optional<T> Difference(const std::optional<T>& before,
                            const std::optional<T>& after) {
  if (!before || !after || *after < *before) return std::nullopt;
  return *after - *before;
}

HealthChange ChangeOf(const TargetInfo& target) {
  const DeviceHealth& start = *target.health;
  const DeviceHealth& end = *target.health_end;
  HealthChange change;
  change.device = target.device_name;
  change.host_bytes_written =
      Difference(start.bytes_written, end.bytes_written);
  change.media_bytes_written =
      Difference(start.media_bytes_written, end.media_bytes_written);
  if (change.host_bytes_written && change.media_bytes_written &&
      *change.host_bytes_written > 0) {
    change.write_amplification =
        static_cast<double>(*change.media_bytes_written) /
        static_cast<double>(*change.host_bytes_written);
  }
  // Micron's page counters: (host + background pages) / host pages.
  const auto host_pages =
      Difference(start.host_program_pages, end.host_program_pages);
  const auto background_pages =
      Difference(start.background_program_pages, end.background_program_pages);
  if (!change.write_amplification && host_pages && background_pages &&
      *host_pages > 0) {
    change.write_amplification =
        static_cast<double>(*host_pages + *background_pages) /
        static_cast<double>(*host_pages);
  }
  change.percentage_used_start = start.percentage_used;
  change.percentage_used_end = end.percentage_used;
  change.throttle_events =
      Difference(start.thermal_throttle_events, end.thermal_throttle_events);
  change.warning_temperature_minutes = Difference(
      start.warning_temperature_minutes, end.warning_temperature_minutes);
  return change;
}

// The series summarise stretches of consecutive full intervals at least
// this long: the kernel counts CPU time in ticks of 10 ms and a disk's busy
// time in whole ms, so intervals of 1 ms or 10 ms, taken one by one, would
// read 0 % or 100 %. One second or longer: each interval is its own.
constexpr double kStretchSeconds = 0.5;

// Telemetry summed over a stretch of intervals.
struct Stretch {
  double seconds = 0;
  IntervalTelemetry telemetry;
};

bool HasMediaFigure(const DeviceHealth& health) {
  return health.media_bytes_written ||
         (health.host_program_pages && health.background_program_pages);
}

// Why a target's disk has no WAF: it reports no media writes (and what
// the tools said), or its counters did not move enough during the run.
std::vector<std::string> WriteAmplificationNotes(
    const RunResult& run, const std::vector<HealthChange>& changes,
    const std::vector<DiskWriteAmplification>& over_time) {
  std::vector<std::string> notes;
  std::vector<std::string> seen;
  for (const TargetInfo& target : run.environment.targets) {
    if (!target.health || target.device_name.empty()) continue;
    const std::string& device = target.device_name;
    if (std::find(seen.begin(), seen.end(), device) != seen.end()) continue;
    seen.push_back(device);
    bool has_figure = false;
    for (const HealthChange& h : changes) {
      has_figure |= h.device == device && h.write_amplification.has_value();
    }
    for (const DiskWriteAmplification& w : over_time) {
      has_figure |= w.device == device && w.overall.has_value();
    }
    if (has_figure) continue;
    const DeviceHealth& health = *target.health;
    if (!HasMediaFigure(health)) {
      const std::string& why =
          !health.unavailable.empty() ? health.unavailable : health.media_note;
      notes.push_back(device + ": the device reports no media writes: no WAF" +
                      (why.empty() ? "" : " (" + why + ")"));
    } else {
      notes.push_back(device + ": the media write counter (" +
                      health.media_counter +
                      ") did not move enough during the run: no WAF");
    }
  }
  return notes;
}

}  // namespace

TelemetrySummary SummarizeTelemetry(const RunResult& run) {
  TelemetrySummary summary;
  // Per device, in the order first seen.
  std::vector<DiskSummary> disks;
  std::map<std::string, size_t> slot;
  struct Series {
    std::vector<double> utilisation, queue, await, read, write;
  };
  std::vector<Series> series;
  bool any_full = false;
  for (const IntervalSample& sample : run.intervals)
    any_full |= !sample.partial;
  std::vector<double> user, system, iowait, softirq, self;
  uint64_t device_read = 0, device_write = 0, app_read = 0, app_write = 0;
  uint64_t ios = 0;
  double self_seconds = 0;
  Stretch stretch;
  // One point per series for the stretch so far, which then starts over.
  const auto close_stretch = [&] {
    const double seconds = stretch.seconds;
    for (const DiskActivity& disk : stretch.telemetry.disks) {
      Series& s = series[slot.at(disk.device)];
      s.utilisation.push_back(100.0 * disk.Utilisation(seconds));
      s.queue.push_back(disk.QueueSize(seconds));
      s.await.push_back(disk.AwaitMs());
      s.read.push_back(disk.read_bytes / kMiB / seconds);
      s.write.push_back(disk.write_bytes / kMiB / seconds);
    }
    if (stretch.telemetry.cpu) {
      const CpuActivity& c = *stretch.telemetry.cpu;
      user.push_back(c.Percent(c.user));
      system.push_back(c.Percent(c.system));
      iowait.push_back(c.Percent(c.iowait));
      softirq.push_back(c.Percent(c.softirq));
      self.push_back(100.0 * (c.self_user + c.self_system) / seconds);
    }
    stretch = Stretch{};
  };
  bool closed_any = false;
  for (const IntervalSample& sample : run.intervals) {
    const IntervalTelemetry& t = sample.telemetry;
    const double seconds = sample.seconds();
    const bool in_series = (!sample.partial || !any_full) && seconds > 0;
    if (!t.disks.empty()) {
      device_read += t.DeviceReadBytes();
      device_write += t.DeviceWriteBytes();
      app_read += sample.read.bytes;
      app_write += sample.write.bytes;
    }
    for (const DiskActivity& disk : t.disks) {
      auto [at, added] = slot.emplace(disk.device, disks.size());
      if (added) {
        DiskSummary added_disk;
        added_disk.device = disk.device;
        added_disk.member_of = disk.member_of;
        disks.push_back(std::move(added_disk));
        series.emplace_back();
      }
      DiskSummary& d = disks[at->second];
      d.read_bytes += disk.read_bytes;
      d.write_bytes += disk.write_bytes;
    }
    if (t.cpu) {
      summary.has_cpu = true;
      const CpuActivity& c = *t.cpu;
      ios += sample.read.ios + sample.write.ios;
      self_seconds += c.self_user + c.self_system;
    }
    if (in_series) {
      AddTelemetry(stretch.telemetry, t);
      stretch.seconds += seconds;
    }
    if (stretch.seconds >= kStretchSeconds) {
      close_stretch();
      closed_any = true;
    }
    if (t.temperature_celsius) {
      const double celsius = *t.temperature_celsius;
      summary.temperature_min =
          std::min(summary.temperature_min.value_or(celsius), celsius);
      summary.temperature_max =
          std::max(summary.temperature_max.value_or(celsius), celsius);
    }
  }
  // A run shorter than a stretch still gets its one point; a longer run's
  // last part-stretch is left out of the series, like a partial interval.
  if (!closed_any && stretch.seconds > 0) close_stretch();
  for (size_t k = 0; k < disks.size(); ++k) {
    disks[k].utilisation_percent = SummarizeSeries(series[k].utilisation);
    disks[k].queue_size = SummarizeSeries(series[k].queue);
    disks[k].await_ms = SummarizeSeries(series[k].await);
    disks[k].read_mibs = SummarizeSeries(series[k].read);
    disks[k].write_mibs = SummarizeSeries(series[k].write);
  }
  summary.disks = std::move(disks);
  if (device_write > 0 && app_write > 0) {
    summary.device_write_ratio =
        static_cast<double>(device_write) / static_cast<double>(app_write);
  }
  if (device_read > 0 && app_read > 0) {
    summary.device_read_ratio =
        static_cast<double>(device_read) / static_cast<double>(app_read);
  }
  if (summary.has_cpu) {
    summary.cpu_user_percent = SummarizeSeries(user);
    summary.cpu_system_percent = SummarizeSeries(system);
    summary.cpu_iowait_percent = SummarizeSeries(iowait);
    summary.cpu_softirq_percent = SummarizeSeries(softirq);
    summary.self_cpu_percent = SummarizeSeries(self);
    if (ios > 0) summary.self_cpu_us_per_io = 1e6 * self_seconds / ios;
  }
  for (const TargetInfo& target : run.environment.targets) {
    if (target.health && target.health_end) {
      summary.health.push_back(ChangeOf(target));
    }
  }
  summary.write_amplification = WriteAmplificationOverTime(run);
  summary.write_amplification_notes =
      WriteAmplificationNotes(run, summary.health, summary.write_amplification);
  return summary;
}

std::optional<double> RunWriteAmplification(const TelemetrySummary& summary) {
  for (const HealthChange& h : summary.health) {
    if (h.write_amplification) return h.write_amplification;
  }
  for (const DiskWriteAmplification& w : summary.write_amplification) {
    if (w.overall) return w.overall;
  }
  return std::nullopt;
}

Endurance EnduranceOf(const TelemetrySummary& summary, uint64_t rated_bytes) {
  Endurance endurance;
  endurance.rated_bytes = rated_bytes;
  for (const HealthChange& h : summary.health) {
    if (h.host_bytes_written) {
      endurance.host_bytes = h.host_bytes_written;
      endurance.host_source = "SMART";
      break;
    }
  }
  if (!endurance.host_bytes) {
    uint64_t written = 0;
    bool any = false;
    for (const DiskSummary& disk : summary.disks) {
      if (!disk.member_of.empty()) continue;
      written += disk.write_bytes;
      any = true;
    }
    if (any) {
      endurance.host_bytes = written;
      endurance.host_source = "diskstats";
    }
  }
  if (endurance.host_bytes && rated_bytes > 0) {
    endurance.percent_of_rating = 100.0 *
                                  static_cast<double>(*endurance.host_bytes) /
                                  static_cast<double>(rated_bytes);
  }
  return endurance;
}

}  // namespace flashmark
