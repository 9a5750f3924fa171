// HostLimits: what this machine lets one run take, as procfs, the
// process's control groups (v1 or v2) and its resource limits say now: the
// memory available to new work (MemAvailable: free memory plus what the
// page cache can give back; less where the memory cgroup's limit leaves
// less), the threads the kernel, the pids cgroup and the user's process
// limit still allow, and the memory the process may lock (what io_uring's
// registered buffers count against unless it holds CAP_IPC_LOCK) and the
// AIO events left for libaio's contexts. Units:
// bytes and threads; 0 where unknown or unlimited. Reads the system on
// each call; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace flashmark {

// Threads that may still be started under one limit, and which limit.
struct ThreadsLeft {
  uint64_t threads = 0;
  const char* limit = "";  // "the kernel's (kernel.threads-max)", ...
};

struct HostLimits {
  uint64_t memory_total_bytes = 0;
  uint64_t memory_available_bytes = 0;
  // Each limit on new threads that applies (kernel, pids cgroup, ulimit -u).
  std::vector<ThreadsLeft> threads_left;
  uint64_t memlock_bytes = 0;    // RLIMIT_MEMLOCK; 0: none
  bool can_lock_memory = false;  // CAP_IPC_LOCK: no memlock limit
  // AIO events still allowed (fs.aio-max-nr minus fs.aio-nr): libaio's
  // io_setup(depth) takes `depth` of them per worker.
  std::optional<uint64_t> aio_events_left;
};

HostLimits ReadHostLimits();

}  // namespace flashmark
