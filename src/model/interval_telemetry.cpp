#include "model/interval_telemetry.h"

namespace flashmark {

double DiskActivity::Utilisation(double seconds) const {
  if (seconds <= 0) return 0;
  const double share = busy_ms / (seconds * 1000.0);
  return share > 1 ? 1 : share;  // io_ticks can run a tick ahead
}

double DiskActivity::QueueSize(double seconds) const {
  return seconds > 0 ? queue_ms / (seconds * 1000.0) : 0;
}

double DiskActivity::AwaitMs() const {
  const uint64_t ios = reads + writes;
  return ios > 0 ? static_cast<double>(read_ms + write_ms) / ios : 0;
}

double CpuActivity::Percent(double part) const {
  const double all = total();
  return all > 0 ? 100.0 * part / all : 0;
}

uint64_t IntervalTelemetry::DeviceReadBytes() const {
  uint64_t bytes = 0;
  for (const DiskActivity& disk : disks) {
    if (disk.member_of.empty()) bytes += disk.read_bytes;
  }
  return bytes;
}

uint64_t IntervalTelemetry::DeviceWriteBytes() const {
  uint64_t bytes = 0;
  for (const DiskActivity& disk : disks) {
    if (disk.member_of.empty()) bytes += disk.write_bytes;
  }
  return bytes;
}

}  // namespace flashmark
