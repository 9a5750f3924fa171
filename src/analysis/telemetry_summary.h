// TelemetrySummary: a run's device and host telemetry in a few figures, for
// `show`, `compare`, the JSON summary and the report: per device the
// medians over full intervals of utilisation, queue size, await and
// throughput, the device bytes set against the application's (filesystem
// and journal overhead: a ratio above 1 is what the device did beyond the
// workload), the machine's CPU split and flashmark's own, the temperature
// range, and from SMART at the start and the end the host and media bytes
// written during the run and so the write amplification, and the write
// amplification over time from the SMART reads during the run. The series take
// full intervals one by one when they last half a second or more, and
// shorter ones gathered into stretches of at least half a second (the
// kernel counts CPU time in 10 ms ticks: a 1 ms interval alone reads 0 %
// or 100 %). Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/write_amplification.h"
#include "model/run_result.h"

namespace flashmark {

struct DiskSummary {
  std::string device;
  std::string member_of;
  uint64_t read_bytes = 0;  // the whole run, partial intervals included
  uint64_t write_bytes = 0;
  // Per full interval (or stretch of them, above):
  SeriesSummary utilisation_percent;
  SeriesSummary queue_size;
  SeriesSummary await_ms;
  SeriesSummary read_mibs;
  SeriesSummary write_mibs;
};

// What SMART said at the start and at the end of the run, as differences.
struct HealthChange {
  std::string device;  // the whole disk
  std::optional<uint64_t> host_bytes_written;
  std::optional<uint64_t> media_bytes_written;
  // media / host bytes over the run; needs both, and host bytes > 0.
  std::optional<double> write_amplification;
  std::optional<uint64_t> throttle_events;
  std::optional<uint64_t> warning_temperature_minutes;
  // Endurance: the rated wear used (NVMe percentage used, ATA life left)
  // at the start and at the end.
  std::optional<int> percentage_used_start, percentage_used_end;
};

struct TelemetrySummary {
  std::vector<DiskSummary> disks;  // the targets' devices, then members
  // The targets' devices' bytes / the application's, over the run; none
  // when either is 0.
  std::optional<double> device_write_ratio;
  std::optional<double> device_read_ratio;
  bool has_cpu = false;
  // Percent of all the machine's CPU time, per full interval (or stretch).
  SeriesSummary cpu_user_percent;
  SeriesSummary cpu_system_percent;
  SeriesSummary cpu_iowait_percent;
  SeriesSummary cpu_softirq_percent;
  // flashmark's own, in percent of one CPU (top's convention), per full
  // interval, and per IO over the run (user + system).
  SeriesSummary self_cpu_percent;
  std::optional<double> self_cpu_us_per_io;
  std::optional<double> temperature_min;
  std::optional<double> temperature_max;
  std::vector<HealthChange> health;
  // Write amplification over time, per disk with media-write readings
  // (analysis/write_amplification.h), and for each target disk that has
  // no WAF figure, why ("sda: the device reports no media writes: no WAF").
  std::vector<DiskWriteAmplification> write_amplification;
  std::vector<std::string> write_amplification_notes;

  bool empty() const {
    return disks.empty() && !has_cpu && !temperature_max && health.empty() &&
           write_amplification.empty() && write_amplification_notes.empty();
  }
};

TelemetrySummary SummarizeTelemetry(const RunResult& run);

// Endurance against the drive's rated terabytes written (TBW, a host-write
// figure: the tag tbw=600T, decimal as vendors state it): what the host
// wrote during the run, from SMART at both ends where it counted it, else
// from diskstats of the targets' devices, and its share of the rating.
struct Endurance {
  uint64_t rated_bytes = 0;
  std::optional<uint64_t> host_bytes;
  std::string host_source;  // "SMART", "diskstats"
  std::optional<double> percent_of_rating;
};
Endurance EnduranceOf(const TelemetrySummary& summary, uint64_t rated_bytes);

// The run's write amplification as one figure: from SMART at the start and
// the end where that gave one, else over the windows of the SMART reads
// during the run (the first disk that has either); none otherwise.
std::optional<double> RunWriteAmplification(const TelemetrySummary& summary);

}  // namespace flashmark
