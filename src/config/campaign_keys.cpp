#include "config/campaign_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace flashmark {
namespace {

using RO = RunOptions;

constexpr std::array<CampaignOption, 44> kOptions{{
    {"profile", "", RangeKind::kAuto, &RO::profile, nullptr, "profile",
     "a database's IO mix in place of --mode and --bs: innodb, rocksdb, "
     "postgres-wal (headline: commit latency)"},
    {"mode", "rw", RangeKind::kAuto, &RO::mode, nullptr, "mode",
     "rndrd rndwr rndrw seqrd seqwr seqrewr (fio: randread randwrite randrw "
     "read write rewrite) [rndrd]"},
    {"rw-ratio", "", RangeKind::kAuto, &RO::rw_ratio, nullptr, "read_fraction",
     "reads per write in rndrw [1.5]"},
    {"read-pct", "rwmixread", RangeKind::kCount, &RO::read_pct, nullptr,
     "read_fraction", "percent reads in rndrw [60]"},
    {"bs", "block-size", RangeKind::kSize, &RO::bs, nullptr, "block_sizes",
     "block size or mix, e.g. 4k/60:64k/40 [16k]"},
    {"threads", "numjobs", RangeKind::kCount, &RO::threads, nullptr, "threads",
     "worker threads [1]"},
    {"iodepth", "", RangeKind::kCount, &RO::iodepth, nullptr, "iodepth",
     "IOs in flight per thread (async engines) [1]"},
    {"direct", "", RangeKind::kAuto, nullptr, &RO::direct, "direct",
     "O_DIRECT: bypass the page cache"},
    {"engine", "ioengine", RangeKind::kAuto, &RO::engine, nullptr, "engine",
     "sync psync libaio io_uring io_uring_cmd mmap null [psync]"},
    {"fixedbufs", "", RangeKind::kAuto, nullptr, &RO::fixedbufs,
     "fixed_buffers",
     "io_uring: fail unless the IO buffers can be registered (they are "
     "whenever the kernel takes them)"},
    {"sqpoll", "sqthread_poll", RangeKind::kAuto, nullptr, &RO::sqpoll,
     "sqpoll", "io_uring: a kernel thread polls for submissions"},
    {"sqpoll-cpu", "sqthread_poll_cpu", RangeKind::kCount, &RO::sqpoll_cpu,
     nullptr, "sqpoll_cpu", "with --sqpoll: the CPU that thread runs on"},
    {"hipri", "", RangeKind::kAuto, nullptr, &RO::hipri, "hipri",
     "io_uring: poll the device for completions (IOPOLL; needs --direct and "
     "a device with poll queues)"},
    {"iodepth-batch-submit", "iodepth_batch_submit", RangeKind::kCount,
     &RO::batch_submit, nullptr, "iodepth_batch_submit",
     "submit once N IOs are queued (0: all that are ready, in one call) [1: "
     "each at once, as fio]"},
    {"iodepth-batch-complete-min", "iodepth_batch_complete_min",
     RangeKind::kCount, &RO::batch_complete_min, nullptr,
     "iodepth_batch_complete_min",
     "with the queue full, wait for at least N completions (0: poll) [1]"},
    {"iodepth-batch-complete-max", "iodepth_batch_complete_max",
     RangeKind::kCount, &RO::batch_complete_max, nullptr,
     "iodepth_batch_complete_max",
     "reap at most N completions at once [0: the iodepth]"},
    {"cpus-allowed", "cpus_allowed", RangeKind::kAuto, &RO::cpus_allowed,
     nullptr, "cpus_allowed", "run the worker threads on these CPUs, e.g. 0-3"},
    {"cpus-allowed-policy", "cpus_allowed_policy", RangeKind::kAuto,
     &RO::cpus_policy, nullptr, "cpus_allowed_policy",
     "shared: every thread may use all of them; split: one CPU per thread "
     "[shared]"},
    {"fsync-every", "fsync", RangeKind::kCount, &RO::fsync_every, nullptr,
     "fsync_every", "fsync after every N writes per thread [0: never]"},
    {"fsync-mode", "", RangeKind::kAuto, &RO::fsync_mode, nullptr, "fsync_mode",
     "fsync or fdatasync [fsync]"},
    {"fsync-end", "end-fsync", RangeKind::kAuto, nullptr, &RO::fsync_end,
     "fsync_end", "fsync written files at the end"},
    {"time", "runtime", RangeKind::kDuration, &RO::time, nullptr,
     "time_seconds", "how long, e.g. 90s, 1h [10s]"},
    {"io-limit", "number-ios", RangeKind::kCount, &RO::io_limit, nullptr,
     "io_limit", "stop after N IOs"},
    {"bytes", "io-size", RangeKind::kSize, &RO::bytes, nullptr, "bytes_limit",
     "stop after SIZE bytes, e.g. 10G"},
    {"rate", "", RangeKind::kCount, &RO::rate, nullptr, "rate_iops",
     "IOPS (5000) or throughput (200MiB/s) cap"},
    {"thinktime", "", RangeKind::kDuration, &RO::thinktime, nullptr,
     "thinktime_seconds",
     "bursts: after each --thinktime-iotime of IO, pause this long"},
    {"thinktime-iotime", "thinktime_iotime", RangeKind::kDuration,
     &RO::thinktime_iotime, nullptr, "thinktime_iotime_seconds",
     "with --thinktime: how long each burst of IO lasts"},
    {"distribution", "random-distribution", RangeKind::kAuto, &RO::distribution,
     nullptr, "distribution",
     "uniform zipf:THETA pareto:H normal:STDDEV% [uniform]"},
    {"seed", "randseed", RangeKind::kCount, &RO::seed, nullptr, "seed",
     "seed for offsets and data [random]"},
    {"data", "", RangeKind::kAuto, &RO::data, nullptr, "data",
     "random (refreshed per write), zero, compressible:PCT [random]"},
    {"shared-buffer", "", RangeKind::kAuto, nullptr, &RO::shared_buffer,
     "shared_buffer",
     "every IO of a thread uses one buffer, filled once, as sysbench does "
     "(writes then carry the same bytes)"},
    {"mem", "", RangeKind::kAuto, &RO::mem, nullptr, "buffer_memory",
     "IO buffers: thp (transparent huge pages: a large IO is one segment) "
     "or malloc (4 KiB pages, fio's default) [thp]"},
    {"trace-latency", "", RangeKind::kAuto, &RO::trace_latency, nullptr,
     "trace_latency",
     "where each IO's time went (flashmark, block queue, device, completion) "
     "from the block tracepoints: on, off, or auto: on for block devices "
     "with --direct, where tracing is allowed (root); the tracepoints cost "
     "the kernel CPU per IO, which --trace-sample cuts [auto]"},
    {"trace-sample", "", RangeKind::kCount, &RO::trace_sample, nullptr,
     "trace_sample",
     "trace 1 IO in N, chosen by its sectors (a power of two): the "
     "kernel drops the others' events early; 1 traces every IO, which "
     "cost 15 to 33 % of the IOPS at 100k to 300k IOPS per core on a "
     "2-core VM (1 in 16: 5 to 17 %) [16]"},
    {"file-num", "nrfiles", RangeKind::kCount, &RO::file_num, nullptr,
     "file_num", "files in a file set [128]"},
    {"size", "file-total-size", RangeKind::kSize, &RO::size, nullptr,
     "size_bytes",
     "file-set total (or offset range), e.g. 32G or 50% of capacity [2G]"},
    {"keep-files", "", RangeKind::kAuto, nullptr, &RO::keep_files, "keep_files",
     "keep the file set afterwards"},
    {"until-steady", "", RangeKind::kAuto, nullptr, &RO::until_steady,
     "until_steady",
     "stop once SNIA steady state holds (bounded by --max-time)"},
    {"max-time", "", RangeKind::kDuration, &RO::max_time, nullptr,
     "time_seconds", "limit for --until-steady [4h]"},
    {"steady-round", "", RangeKind::kDuration, &RO::steady_round, nullptr,
     "steady_round_seconds", "SNIA round length for --until-steady [60s]"},
    {"min-time", "", RangeKind::kDuration, &RO::min_time, nullptr,
     "min_time_seconds",
     "with --until-steady: run at least this long, then stop once the headline "
     "(final regime) is steady"},
    {"detect-throttle", "", RangeKind::kAuto, nullptr, &RO::detect_throttle,
     "detect_throttle",
     "characterise a throttled volume (cloud burst credits): IO, then idle "
     "gaps of growing length; reports the burst rate, how long it lasts, "
     "the baseline and the refill rate (needs --time of 48 intervals or "
     "more)"},
    {"interval", "report-interval", RangeKind::kDuration, &RO::interval,
     nullptr, "interval_seconds", "sampling interval [1s]"},
    {"continue-on-error", "", RangeKind::kAuto, nullptr, &RO::continue_on_error,
     "continue_on_error", "count IO errors per interval instead of stopping"},
}};

struct Misplaced {
  std::string_view name;
  std::string_view hint;
};
constexpr std::array<Misplaced, 10> kMisplaced{{
    {"target",
     "targets go in [targets] paths = [...], or a [matrix] target "
     "axis"},
    {"targets", "targets go in [targets] paths = [...]"},
    {"allow-destroy", "pass --allow-destroy DEVICE to flashmark sweep"},
    {"db", "pass --db FILE to flashmark sweep"},
    {"no-db", "a sweep always stores its runs"},
    {"json",
     "flashmark sweep stores every cell; export them with flashmark "
     "export"},
    {"label", "flashmark sweep labels each cell with the campaign name"},
    {"tag", "flashmark sweep tags each cell with its parameters"},
    {"tags", "flashmark sweep tags each cell with its parameters"},
    {"quiet", "pass --quiet to flashmark sweep"},
}};

}  // namespace

std::span<const CampaignOption> CampaignOptions() { return kOptions; }

const CampaignOption* FindCampaignOption(std::string_view name) {
  for (const CampaignOption& option : kOptions) {
    if (name == option.name ||
        (!option.alias.empty() && name == option.alias)) {
      return &option;
    }
  }
  return nullptr;
}

std::vector<std::string_view> CampaignOptionNames() {
  std::vector<std::string_view> names;
  for (const CampaignOption& option : kOptions) {
    names.push_back(option.name);
    if (!option.alias.empty()) names.push_back(option.alias);
  }
  return names;
}

void ApplyCampaignOption(const CampaignOption& option, const std::string& text,
                         RunOptions& options) {
  if (option.flag != nullptr) {
    options.*option.flag = text == "true";
  } else {
    options.*option.text = text;
  }
}

std::vector<std::string> WorkloadArguments(const RunOptions& options) {
  std::vector<std::string> args;
  for (const CampaignOption& option : CampaignOptions()) {
    if (option.flag != nullptr) {
      if (options.*option.flag) args.push_back("--" + std::string(option.name));
    } else if (const auto& value = options.*option.text; value) {
      args.push_back("--" + std::string(option.name));
      args.push_back(*value);
    }
  }
  return args;
}

Status CheckCampaignOptionValue(const CampaignOption& option,
                                const std::string& text) {
  if (option.flag != nullptr) {
    if (text == "true" || text == "false") return OkStatus();
    return UsageError(
        fmt::format("{}: \"{}\" is not true or false", option.name, text));
  }
  RunOptions alone;
  ApplyCampaignOption(option, text, alone);
  // The context a value needs to be checked on its own.
  if (option.name == "rw-ratio" || option.name == "read-pct") {
    alone.mode = "rndrw";
  }
  if (option.name == "distribution") alone.mode = "rndrd";
  if (option.name.starts_with("iodepth-batch") || option.name == "sqpoll-cpu") {
    alone.engine = "io_uring";
    alone.iodepth = "65536";
    alone.sqpoll = option.name == "sqpoll-cpu";
  }
  if (option.name == "cpus-allowed-policy") alone.cpus_allowed = "0";
  if (option.name == "thinktime") alone.thinktime_iotime = "1s";
  if (option.name == "thinktime-iotime") alone.thinktime = "1s";
  if (option.name == "max-time" || option.name == "steady-round" ||
      option.name == "min-time") {
    alone.until_steady = true;
    alone.interval = "10ms";
  }
  auto built = BuildJobSpec(alone);
  if (built.ok()) return OkStatus();
  Error error = built.error();
  if (error.message.starts_with("--")) error.message.erase(0, 2);
  return error;
}

std::string_view MisplacedKeyHint(std::string_view name) {
  for (const Misplaced& key : kMisplaced) {
    if (key.name == name) return key.hint;
  }
  return {};
}

size_t EditDistance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] =
          std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::string ClosestKey(std::string_view name,
                       std::span<const std::string_view> known) {
  // A typo changes about one character in three, and at least one.
  const size_t allowed = std::clamp<size_t>(name.size() / 3, 1, 3);
  std::string_view best;
  size_t best_distance = allowed + 1;
  for (std::string_view candidate : known) {
    const size_t distance = EditDistance(name, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return std::string(best);
}

std::string SuggestKey(std::string_view name,
                       std::span<const std::string_view> known) {
  const std::string closest = ClosestKey(name, known);
  if (!closest.empty()) return fmt::format("did you mean {}?", closest);
  return fmt::format("known keys: {}", fmt::join(known, ", "));
}

}  // namespace flashmark
