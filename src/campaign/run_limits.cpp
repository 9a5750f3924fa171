#include "campaign/run_limits.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/units.h"
#include "runner/worker.h"

namespace flashmark {

Status CheckRunFitsHost(const JobSpec& spec, const HostLimits& host) {
  const uint64_t threads = static_cast<uint64_t>(spec.threads);
  const uint64_t per_worker = WorkerBufferBytes(spec);
  const uint64_t buffers = per_worker * threads;
  const std::string what = fmt::format(
      "the IO buffers of {} thread{} ({} each: {} x {}{})", threads,
      threads == 1 ? "" : "s", FormatBytes(per_worker), WorkerBufferCount(spec),
      FormatBytes(MaxBlockSize(spec.block_sizes)),
      spec.huge_page_buffers ? ", on huge pages" : "");
  const char* const smaller =
      "use a smaller --bs, --iodepth or --threads, or --shared-buffer";
  if (host.memory_available_bytes != 0 &&
      buffers > host.memory_available_bytes / 2) {
    return UsageError(
        fmt::format("{} take {}, more than half of the memory available ({} "
                    "of {})",
                    what, FormatBytes(buffers),
                    FormatBytes(host.memory_available_bytes),
                    FormatBytes(host.memory_total_bytes)),
        smaller);
  }
  if (spec.tuning.fixed_buffers && !host.can_lock_memory &&
      host.memlock_bytes != 0 && buffers > host.memlock_bytes) {
    return UsageError(
        fmt::format("--fixedbufs: {} take {}, more than the {} this process "
                    "may lock (ulimit -l)",
                    what, FormatBytes(buffers),
                    FormatBytes(host.memlock_bytes)),
        "raise the limit (ulimit -l, limits.conf), leave out --fixedbufs, "
        "or " +
            std::string(smaller));
  }
  // libaio: each worker's context takes --iodepth events, the engine's
  // probe one more context (released beside the run).
  if (spec.engine == "libaio" && host.aio_events_left) {
    const uint64_t depth = static_cast<uint64_t>(std::max(1, spec.iodepth));
    const uint64_t events = (threads + 1) * depth;
    if (events > *host.aio_events_left) {
      return UsageError(
          fmt::format("libaio: --threads {} x --iodepth {} need {} AIO "
                      "events, more than the {} the system has left "
                      "(fs.aio-max-nr)",
                      threads, depth, events, *host.aio_events_left),
          fmt::format("use fewer --threads or a smaller --iodepth, --engine "
                      "io_uring, or raise the limit (sysctl -w "
                      "fs.aio-max-nr={})",
                      std::max<uint64_t>(65536, events * 2)));
    }
  }
  // The sampler, output, telemetry and engine threads beside the workers.
  constexpr uint64_t kOtherThreads = 8;
  for (const ThreadsLeft& limit : host.threads_left) {
    if (threads + kOtherThreads <= limit.threads) continue;
    const uint64_t most =
        limit.threads > kOtherThreads ? limit.threads - kOtherThreads : 0;
    return UsageError(
        fmt::format("--threads {} is more than {} allows beside the threads "
                    "running now: {} more at most",
                    threads, limit.limit, most),
        fmt::format("use --threads {} or fewer, with --iodepth for more IO "
                    "in flight",
                    most));
  }
  return OkStatus();
}

}  // namespace flashmark
