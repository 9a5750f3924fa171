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

uint64_t IntervalTelemetry::TargetDeviceSum(
    uint64_t DiskActivity::*field) const {
  uint64_t sum = 0;
  for (const DiskActivity& disk : disks) {
    if (disk.member_of.empty()) sum += disk.*field;
  }
  return sum;
}

uint64_t IntervalTelemetry::DeviceReadBytes() const {
  return TargetDeviceSum(&DiskActivity::read_bytes);
}

uint64_t IntervalTelemetry::DeviceWriteBytes() const {
  return TargetDeviceSum(&DiskActivity::write_bytes);
}

const DiskActivity* IntervalTelemetry::Busiest() const {
  const DiskActivity* busiest = nullptr;
  for (const DiskActivity& disk : disks) {
    if (disk.member_of.empty() &&
        (busiest == nullptr || disk.busy_ms > busiest->busy_ms)) {
      busiest = &disk;
    }
  }
  return busiest;
}

}  // namespace flashmark
