// Environment: where a run happened, as recorded with it (host, kernel, CPU,
// memory, and for each target its kind, filesystem and mount). Plain data;
// system/environment_capture.h fills it in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/device_health.h"

namespace flashmark {

struct TargetInfo {
  std::string path;    // as the user gave it
  std::string kind;    // "file set", "file", "block device", "none"
  uint64_t bytes = 0;  // bytes the workload spans on this target
  int file_count = 0;
  std::string filesystem;  // "ext4", "xfs"; empty for a raw device
  std::string mount_point;
  std::string mount_options;
  std::string device;  // block device under the target, e.g. /dev/vda
  // The whole disk under `device`, from sysfs (empty when unknown):
  std::string device_name;  // "vda", "nvme0n1"
  std::string model;
  std::string serial;
  std::string firmware;
  uint64_t capacity_bytes = 0;
  bool rotational = false;
  std::string scheduler;  // the active one, e.g. "mq-deadline"
  int queue_depth = 0;    // queue/nr_requests
  std::string transport;  // "NVMe", "SATA", "virtio", "loop", "md", "dm"
  uint32_t logical_sector_size = 0;
  uint32_t physical_sector_size = 0;
  std::string write_cache;  // "write back", "write through"
  // queue/io_poll: whether it has poll queues; unknown in runs recorded
  // before it was.
  std::optional<bool> io_poll;
  uint64_t discard_granularity = 0;  // bytes; 0: no discard
  int numa_node = -1;                // -1: none or unknown
  // SMART / NVMe health of that disk when the run started; none when the
  // target has no disk under it (tmpfs, null engine).
  std::optional<DeviceHealth> health;
  // The same when the run ended (runs recorded before it was have none):
  // with `health` it gives the host and media writes of the run.
  std::optional<DeviceHealth> health_end;
};

struct Environment {
  std::string host;
  std::string kernel;
  std::string cpu_model;
  int cpu_count = 0;
  uint64_t memory_bytes = 0;
  // cpufreq scaling governor ("performance"; "ondemand/performance" when
  // CPUs differ); "none" when the machine has no cpufreq (most VMs); ""
  // when not recorded (runs before it was).
  std::string cpu_governor;
  // What the engine set up, from its first worker ("io_uring: ring
  // SINGLE_ISSUER DEFER_TASKRUN, registered files"); "" when nothing.
  std::string engine_setup;
  std::vector<TargetInfo> targets;
  // A run across MPI ranks. The aggregate: how many ranks on which hosts,
  // the start skew, when the first and last rank finished, the ranks lost
  // ("4 ranks on 1 host (vm); start skew 0.041 ms; ..."). A rank's run:
  // which one (document/rank_identity.h). "" for any other run.
  std::string cluster;
  // Why the figures may not be what they seem, each one sentence (e.g.
  // "the file set fits in memory: this run measures the page cache").
  std::vector<std::string> warnings;
};

}  // namespace flashmark
