#include "config/run_options.h"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <bit>
#include <charconv>

#include "common/cpu_list.h"
#include "common/units.h"
#include "config/app_profiles.h"
#include "config/tag_options.h"
#include "config/workload_parse.h"
#include "engine/engine_registry.h"
#include "model/throttle_schedule.h"

namespace flashmark {
namespace {

// Prefixes a value error with the option it came from.
Error ForOption(const std::string& option, const Error& error,
                const std::string& example) {
  std::string hint = error.hint;
  if (!example.empty()) {
    hint = hint.empty() ? fmt::format("try {} {}", option, example)
                        : fmt::format("{}; try {} {}", hint, option, example);
  }
  return UsageError(fmt::format("{}: {}", option, error.message), hint);
}

Result<uint64_t> ParseCount(const std::string& option, const std::string& text,
                            uint64_t min, uint64_t max,
                            const std::string& example) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    return ForOption(
        option, UsageError(fmt::format("\"{}\" is not a whole number", text)),
        example);
  }
  if (value < min) {
    const char* what = min == 1 ? "is not a positive number" : "is too small";
    return ForOption(option,
                     UsageError(min <= 1 ? fmt::format("{} {}", value, what)
                                         : fmt::format("{} {} (at least {})",
                                                       value, what, min)),
                     example);
  }
  if (value > max) {
    return ForOption(
        option,
        UsageError(fmt::format("{} is more than the maximum {}", value, max)),
        example);
  }
  return value;
}

template <typename T>
Result<T> Wrap(const std::string& option, Result<T> parsed,
               const std::string& example) {
  if (!parsed.ok()) return ForOption(option, parsed.error(), example);
  return parsed;
}

// A CPU the process may not run on, as an error; ok otherwise.
Status CheckCpuAllowed(const std::string& option, int cpu,
                       const std::vector<int>& allowed) {
  if (std::binary_search(allowed.begin(), allowed.end(), cpu)) {
    return OkStatus();
  }
  return UsageError(
      fmt::format("{}: CPU {} is not one this process may run on", option, cpu),
      fmt::format("the allowed CPUs are {}; taskset -cp $$ lists them",
                  CpuListText(allowed)));
}

// --fixedbufs, --sqpoll, --sqpoll-cpu, --hipri and the batch sizes, after
// the engine, --iodepth and --direct.
Status BuildTuning(const RunOptions& o, const EngineInfo& engine,
                   BuiltJob& built) {
  JobSpec& spec = built.spec;
  EngineTuning& tuning = spec.tuning;
  tuning.fixed_buffers = o.fixedbufs;
  tuning.sqpoll = o.sqpoll;
  tuning.hipri = o.hipri;
  if (o.sqpoll_cpu) {
    if (!o.sqpoll) {
      return UsageError("--sqpoll-cpu applies to --sqpoll only",
                        "add --sqpoll, or drop --sqpoll-cpu");
    }
    auto cpu =
        ParseCount("--sqpoll-cpu", *o.sqpoll_cpu, 0, CPU_SETSIZE - 1, "1");
    if (!cpu.ok()) return cpu.error();
    tuning.sqpoll_cpu = static_cast<int>(*cpu);
    if (Status allowed =
            CheckCpuAllowed("--sqpoll-cpu", tuning.sqpoll_cpu, AllowedCpus());
        !allowed.ok()) {
      return allowed;
    }
  }
  if (Status honoured = CheckTuning(spec.engine, engine.capabilities, tuning);
      !honoured.ok()) {
    return honoured;
  }
  // One registered buffer per unit; the kernel registers at most 16384.
  constexpr int kMaxRegisteredBuffers = 16384;
  if (tuning.fixed_buffers && spec.iodepth > kMaxRegisteredBuffers) {
    return UsageError(
        fmt::format("--fixedbufs: --iodepth {} needs {} registered buffers, "
                    "more than the kernel's {}",
                    spec.iodepth, spec.iodepth, kMaxRegisteredBuffers),
        fmt::format("use --iodepth {} or less, or more --threads",
                    kMaxRegisteredBuffers));
  }
  if (tuning.hipri && !spec.direct) {
    return UsageError("--hipri needs --direct",
                      "polled IO bypasses the page cache: add --direct");
  }
  struct Batch {
    const std::optional<std::string>& text;
    const char* option;
    int& value;
  };
  const Batch batches[] = {
      {o.batch_submit, "--iodepth-batch-submit", tuning.batch_submit},
      {o.batch_complete_min, "--iodepth-batch-complete-min",
       tuning.batch_complete_min},
      {o.batch_complete_max, "--iodepth-batch-complete-max",
       tuning.batch_complete_max},
  };
  for (const Batch& batch : batches) {
    if (!batch.text) continue;
    if ((engine.capabilities & kCapAsync) == 0) {
      built.warnings.push_back(fmt::format(
          "{} has no effect with the synchronous {} engine (one IO at a "
          "time); try --engine io_uring or libaio",
          batch.option, spec.engine));
      continue;
    }
    auto value = ParseCount(batch.option, *batch.text, 0, 65536, "8");
    if (!value.ok()) return value.error();
    if (*value > static_cast<uint64_t>(spec.iodepth)) {
      return UsageError(
          fmt::format("{}: {} is more than --iodepth {}", batch.option, *value,
                      spec.iodepth),
          fmt::format("a batch holds at most the queue depth; try {} {} or "
                      "a larger --iodepth",
                      batch.option, spec.iodepth));
    }
    batch.value = static_cast<int>(*value);
  }
  if (tuning.batch_complete_max != 0 &&
      tuning.batch_complete_max < tuning.batch_complete_min) {
    return UsageError(
        fmt::format("--iodepth-batch-complete-max {} is less than "
                    "--iodepth-batch-complete-min {}",
                    tuning.batch_complete_max, tuning.batch_complete_min),
        "the most reaped at once must be at least the fewest waited for");
  }
  return OkStatus();
}

// --cpus-allowed and --cpus-allowed-policy.
Status BuildCpuPlacement(const RunOptions& o, JobSpec& spec) {
  if (o.cpus_policy && !o.cpus_allowed) {
    return UsageError("--cpus-allowed-policy applies to --cpus-allowed only",
                      "add --cpus-allowed 0-3");
  }
  if (!o.cpus_allowed) return OkStatus();
  auto cpus = ParseCpuList(*o.cpus_allowed);
  if (!cpus.ok()) return ForOption("--cpus-allowed", cpus.error(), "0-3");
  const std::vector<int> allowed = AllowedCpus();
  for (int cpu : *cpus) {
    if (Status ok = CheckCpuAllowed("--cpus-allowed", cpu, allowed); !ok.ok()) {
      return ok;
    }
  }
  spec.cpus_allowed = std::move(*cpus);
  if (o.cpus_policy) {
    if (*o.cpus_policy != "shared" && *o.cpus_policy != "split") {
      return UsageError(
          fmt::format("--cpus-allowed-policy: \"{}\" is not shared or split",
                      *o.cpus_policy),
          "shared: every thread may run on all the CPUs; split: thread k "
          "runs on the k-th CPU alone");
    }
    spec.cpus_split = *o.cpus_policy == "split";
  }
  return OkStatus();
}

// A rate so low that a thread's share gives it not one IO after its
// first within the run (each thread starts at once, then one IO each
// 1/share s): refused rather than run as a single IO per thread.
Status CheckRateFitsRun(const JobSpec& spec) {
  if (spec.time.count() == 0) return OkStatus();
  const double run_seconds = std::chrono::duration<double>(spec.time).count();
  const double threads = spec.threads;
  const double ios_per_thread =
      spec.rate.iops > 0 ? spec.rate.iops / threads * run_seconds
      : spec.rate.bytes_per_second > 0
          ? spec.rate.bytes_per_second / threads * run_seconds /
                static_cast<double>(MaxBlockSize(spec.block_sizes))
          : 2;
  if (ios_per_thread >= 1) return OkStatus();
  return UsageError(
      fmt::format(
          "--rate: at {} shared by {} thread{}, a thread starts one "
          "IO every {}, longer than the run ({})",
          spec.rate.iops > 0
              ? fmt::format("{:g} IOPS", spec.rate.iops)
              : FormatBytes(static_cast<uint64_t>(spec.rate.bytes_per_second)) +
                    "/s",
          spec.threads, spec.threads == 1 ? "" : "s",
          FormatDuration(std::chrono::nanoseconds(
              static_cast<int64_t>(run_seconds / ios_per_thread * 1e9))),
          FormatDuration(spec.time)),
      "raise --rate, lengthen --time, or use fewer --threads");
}

// --detect-throttle runs its own schedule of IO and idle gaps
// (model/throttle_schedule.h) for the whole --time, so it refuses what
// would end the run early or pace its IO otherwise.
Status CheckDetectThrottle(const RunOptions& o, const JobSpec& spec) {
  const char* clash = o.until_steady ? "--until-steady"
                      : o.thinktime  ? "--thinktime"
                      : o.rate       ? "--rate"
                      : o.io_limit   ? "--io-limit"
                      : o.bytes      ? "--bytes"
                                     : nullptr;
  if (clash != nullptr) {
    return UsageError(
        fmt::format("--detect-throttle with {}: the throttle probe runs its "
                    "own schedule of IO and idle gaps for the whole --time",
                    clash),
        fmt::format("drop {}; give the probe's length with --time", clash));
  }
  const std::chrono::nanoseconds least = MinThrottleTime(spec.interval);
  if (!o.time || spec.time < least) {
    return UsageError(
        fmt::format(
            "--detect-throttle: {} is too short: the probe needs {} "
            "intervals of {} ({}) for a burst, its baseline and three idle "
            "gaps that measure the refill",
            o.time ? fmt::format("--time {}", *o.time)
                   : fmt::format("the default --time {}",
                                 FormatDuration(spec.time)),
            kThrottleUnits * kThrottleUnitIntervals,
            FormatDuration(spec.interval), FormatDuration(least)),
        fmt::format("give --time {:g}s or more: about twice the burst a "
                    "full bucket lasts (a cloud volume's burst can last 30 "
                    "min: --time 2h), or a shorter --interval",
                    std::chrono::duration<double>(least).count()));
  }
  return OkStatus();
}

// --profile: the profile's mix in place of the options that would set the
// IO pattern, sizes or syncs, which are refused beside it.
Status ApplyProfile(const RunOptions& o, JobSpec& spec) {
  if (!o.profile) return OkStatus();
  auto profile = FindAppProfile(*o.profile);
  if (!profile.ok()) return profile.error();
  const std::pair<bool, const char*> contradicting[] = {
      {o.mode.has_value(), "--mode"},
      {o.bs.has_value(), "--bs"},
      {o.rw_ratio.has_value(), "--rw-ratio"},
      {o.read_pct.has_value(), "--read-pct"},
      {o.fsync_every.has_value(), "--fsync-every"},
      {o.fsync_mode.has_value(), "--fsync-mode"},
      {o.fsync_end, "--fsync-end"},
      {o.distribution.has_value(), "--distribution"},
      {o.verify, "--verify"},
  };
  for (const auto& [given, option] : contradicting) {
    if (!given) continue;
    return UsageError(
        fmt::format("{} contradicts --profile {}: the profile sets the IO "
                    "pattern, sizes and syncs ({})",
                    option, profile->name, ProfileMixText(*profile)),
        fmt::format("drop {}, or drop --profile and describe the workload "
                    "with --mode, --bs and --fsync-every",
                    option));
  }
  spec.profile = std::move(profile).value();
  spec.mode = IoMode::kRndRw;
  spec.block_sizes = {{ProfileMaxBytes(spec.profile), 100}};
  spec.threads = spec.profile.threads;
  return OkStatus();
}

}  // namespace

Result<BuiltJob> BuildJobSpec(const RunOptions& o) {
  BuiltJob built;
  JobSpec& spec = built.spec;
  spec.analysis = o.analysis;

  if (Status profiled = ApplyProfile(o, spec); !profiled.ok()) {
    return profiled.error();
  }
  if (!spec.profile.empty()) {
    // The profile's IO pattern, sizes and syncs (checked above).
  } else if (o.mode) {
    auto mode = Wrap("--mode", ParseMode(*o.mode), "");
    if (!mode.ok()) return mode.error();
    spec.mode = *mode;
  } else {
    spec.mode = IoMode::kRndRd;
  }
  if (o.rw_ratio && o.read_pct) {
    return UsageError("--rw-ratio and --read-pct both given",
                      "give one: --rw-ratio 1.5 means 3 reads per 2 writes "
                      "(= --read-pct 60)");
  }
  if ((o.rw_ratio || o.read_pct) && spec.mode != IoMode::kRndRw) {
    return UsageError(fmt::format("{} applies to the mixed mode only, not {}",
                                  o.rw_ratio ? "--rw-ratio" : "--read-pct",
                                  ModeName(spec.mode)),
                      "add --mode rndrw");
  }
  if (o.rw_ratio) {
    char* end = nullptr;
    const double ratio = std::strtod(o.rw_ratio->c_str(), &end);
    if (end == o.rw_ratio->c_str() || *end != '\0' || !(ratio > 0)) {
      return UsageError(
          fmt::format("--rw-ratio: \"{}\" is not a positive ratio of reads "
                      "to writes",
                      *o.rw_ratio),
          "try --rw-ratio 1.5 (3 reads per 2 writes)");
    }
    spec.read_fraction = ratio / (1 + ratio);
  }
  if (o.read_pct) {
    char* end = nullptr;
    const double pct = std::strtod(o.read_pct->c_str(), &end);
    if (end == o.read_pct->c_str() || *end != '\0' || pct < 0 || pct > 100) {
      return UsageError(
          fmt::format("--read-pct: \"{}\" is not a percentage from 0 to 100",
                      *o.read_pct),
          "try --read-pct 70");
    }
    spec.read_fraction = pct / 100;
  }
  if (o.bs) {
    auto mix = Wrap("--bs", ParseBlockSizeMix(*o.bs), "16k");
    if (!mix.ok()) return mix.error();
    spec.block_sizes = *mix;
  }
  if (o.threads) {
    auto threads = ParseCount("--threads", *o.threads, 1, 4096, "8");
    if (!threads.ok()) return threads.error();
    spec.threads = static_cast<int>(*threads);
  }
  if (o.engine) spec.engine = *o.engine;
  const EngineInfo* engine = FindEngine(spec.engine);
  if (engine == nullptr) {
    return UsageError(
        fmt::format("--engine: unknown engine \"{}\"", spec.engine),
        "engines: " + EngineNames());
  }
  if (o.iodepth) {
    auto depth = ParseCount("--iodepth", *o.iodepth, 1, 65536, "32");
    if (!depth.ok()) return depth.error();
    spec.iodepth = static_cast<int>(*depth);
    if (spec.iodepth > 1 && !(engine->capabilities & kCapAsync)) {
      built.warnings.push_back(fmt::format(
          "--iodepth {} has no effect with the synchronous {} engine; try "
          "--engine io_uring or libaio, or more --threads",
          spec.iodepth, spec.engine));
      spec.iodepth = 1;
    }
  }
  spec.direct = o.direct;
  if (spec.direct && !(engine->capabilities & (kCapDirectIo | kCapDiskless))) {
    return UsageError(
        fmt::format("--direct: the {} engine cannot do direct IO", spec.engine),
        "use --engine psync, libaio or io_uring with --direct");
  }
  if (Status tuned = BuildTuning(o, *engine, built); !tuned.ok()) {
    return tuned.error();
  }
  if (Status pinned = BuildCpuPlacement(o, spec); !pinned.ok()) {
    return pinned.error();
  }
  if (o.fsync_every) {
    auto every =
        ParseCount("--fsync-every", *o.fsync_every, 0, UINT64_MAX, "100");
    if (!every.ok()) return every.error();
    spec.fsync_every = *every;
  }
  if (o.fsync_mode) {
    auto mode =
        Wrap("--fsync-mode", ParseFsyncMode(*o.fsync_mode), "fdatasync");
    if (!mode.ok()) return mode.error();
    spec.fsync_mode = *mode;
  }
  spec.fsync_end = o.fsync_end;
  if ((spec.fsync_every || spec.fsync_end) && !Writes(spec.mode)) {
    built.warnings.push_back(
        fmt::format("fsync options have no effect: {} does not write",
                    ModeName(spec.mode)));
  }

  if (o.time) {
    auto time = Wrap("--time", ParseDuration(*o.time), "60s");
    if (!time.ok()) return time.error();
    if (time->count() <= 0) {
      return UsageError(
          fmt::format("--time: \"{}\" is not a positive duration", *o.time),
          "try --time 60s, or --io-limit / --bytes instead");
    }
    spec.time = *time;
  }
  if (o.io_limit) {
    auto limit = ParseCount("--io-limit", *o.io_limit, 1, UINT64_MAX, "100000");
    if (!limit.ok()) return limit.error();
    spec.io_limit = *limit;
  }
  if (o.bytes) {
    auto bytes = Wrap("--bytes", ParseSize(*o.bytes), "10G");
    if (!bytes.ok()) return bytes.error();
    if (*bytes == 0) {
      return UsageError("--bytes: 0 is not a positive size", "try --bytes 10G");
    }
    spec.bytes_limit = *bytes;
  }
  if ((o.max_time || o.steady_round || o.min_time) && !o.until_steady) {
    return UsageError(fmt::format("{} applies with --until-steady only",
                                  o.max_time       ? "--max-time"
                                  : o.steady_round ? "--steady-round"
                                                   : "--min-time"),
                      "add --until-steady");
  }
  if (o.until_steady) {
    if (o.time) {
      return UsageError(
          "--time and --until-steady both given",
          "with --until-steady, bound the run with --max-time 4h");
    }
    spec.until_steady = true;
    spec.time = std::chrono::hours(4);
    if (o.max_time) {
      auto limit = Wrap("--max-time", ParseDuration(*o.max_time), "4h");
      if (!limit.ok()) return limit.error();
      if (limit->count() <= 0) {
        return UsageError(fmt::format("--max-time: \"{}\" is not a positive "
                                      "duration",
                                      *o.max_time),
                          "try --max-time 4h");
      }
      spec.time = *limit;
    }
    if (o.steady_round) {
      auto round =
          Wrap("--steady-round", ParseDuration(*o.steady_round), "60s");
      if (!round.ok()) return round.error();
      spec.steady_round = *round;
    }
    if (o.min_time) {
      auto minimum = Wrap("--min-time", ParseDuration(*o.min_time), "1h");
      if (!minimum.ok()) return minimum.error();
      if (minimum->count() <= 0 || *minimum > spec.time) {
        return UsageError(
            fmt::format("--min-time: \"{}\" is not a positive duration "
                        "within --max-time ({})",
                        *o.min_time, FormatDuration(spec.time)),
            "try --min-time 1h --max-time 4h");
      }
      spec.min_time = *minimum;
    }
  }
  if (!o.time && !o.io_limit && !o.bytes && !o.until_steady) {
    spec.time = std::chrono::seconds(10);
  }
  if (o.rate) {
    auto rate = Wrap("--rate", ParseRate(*o.rate), "5000 or --rate 200MiB/s");
    if (!rate.ok()) return rate.error();
    if (rate->iops <= 0 && rate->bytes_per_second <= 0) {
      return UsageError(
          fmt::format("--rate: \"{}\" is not a positive rate", *o.rate),
          "try --rate 5000 (IOPS) or --rate 200MiB/s");
    }
    spec.rate = *rate;
  }
  if (o.thinktime || o.thinktime_iotime) {
    if (!o.thinktime || !o.thinktime_iotime) {
      return UsageError(
          fmt::format("{} needs {}",
                      o.thinktime ? "--thinktime" : "--thinktime-iotime",
                      o.thinktime ? "--thinktime-iotime" : "--thinktime"),
          "bursts take both: --thinktime-iotime 5s --thinktime 10s is 5 s of "
          "IO, then 10 s without, and again");
    }
    auto think = Wrap("--thinktime", ParseDuration(*o.thinktime), "10s");
    if (!think.ok()) return think.error();
    auto burst =
        Wrap("--thinktime-iotime", ParseDuration(*o.thinktime_iotime), "5s");
    if (!burst.ok()) return burst.error();
    if (think->count() <= 0 || burst->count() <= 0) {
      return UsageError(
          fmt::format(
              "{}: \"{}\" is not a positive duration",
              think->count() <= 0 ? "--thinktime" : "--thinktime-iotime",
              think->count() <= 0 ? *o.thinktime : *o.thinktime_iotime),
          "try --thinktime-iotime 5s --thinktime 10s");
    }
    spec.think_time = *think;
    spec.think_io_time = *burst;
  }
  if (o.distribution) {
    auto distribution =
        Wrap("--distribution", ParseDistribution(*o.distribution), "zipf:1.2");
    if (!distribution.ok()) return distribution.error();
    spec.distribution = *distribution;
    if (spec.distribution.kind != DistributionKind::kUniform &&
        PatternOf(spec.mode) == AccessPattern::kSequential) {
      return UsageError(
          fmt::format("--distribution {} needs a random mode, not {}",
                      *o.distribution, ModeName(spec.mode)),
          "use --mode rndrd, rndwr or rndrw");
    }
  }
  if (o.seed) {
    auto seed = ParseCount("--seed", *o.seed, 0, UINT64_MAX, "42");
    if (!seed.ok()) return seed.error();
    spec.seed = *seed;
    spec.seed_given = true;
  }
  spec.shared_buffer = o.shared_buffer;
  if (o.mem) {
    if (*o.mem != "thp" && *o.mem != "malloc") {
      return UsageError(
          fmt::format("--mem: \"{}\" is not a kind of buffer memory", *o.mem),
          "use thp (transparent huge pages, the default) or malloc "
          "(ordinary 4 KiB pages, fio's default)");
    }
    spec.huge_page_buffers = *o.mem == "thp";
  }
  if (o.trace_latency) {
    using Trace = JobSpec::TraceLatency;
    const std::string& value = *o.trace_latency;
    if (value != "on" && value != "off" && value != "auto") {
      return UsageError(
          fmt::format("--trace-latency: \"{}\" is not on, off or auto", value),
          "use on (trace wherever allowed), off, or auto (block devices "
          "with --direct)");
    }
    spec.trace_latency = value == "on"    ? Trace::kOn
                         : value == "off" ? Trace::kOff
                                          : Trace::kAuto;
  }
  if (o.trace_sample) {
    auto one_in =
        ParseCount("--trace-sample", *o.trace_sample, 1, 1u << 16, "16");
    if (!one_in.ok()) return one_in.error();
    if (!std::has_single_bit(*one_in)) {
      return UsageError(
          fmt::format("--trace-sample: {} is not a power of two", *one_in),
          fmt::format("the kernel picks the IOs by their sectors' bits; try "
                      "--trace-sample {}",
                      std::bit_floor(*one_in)));
    }
    spec.trace_sample = static_cast<uint32_t>(*one_in);
  }
  if (o.data) {
    auto data = Wrap("--data", ParseDataPattern(*o.data), "compressible:50");
    if (!data.ok()) return data.error();
    spec.data = *data;
  }
  if (o.file_num) {
    auto files = ParseCount("--file-num", *o.file_num, 1, 100000, "64");
    if (!files.ok()) return files.error();
    spec.file_num = static_cast<int>(*files);
  }
  if (!spec.profile.empty()) {
    const auto regions = static_cast<int>(spec.profile.regions.size());
    if (o.file_num && spec.file_num != regions) {
      return UsageError(
          fmt::format("--file-num {} contradicts --profile {}, whose file "
                      "set is {} files (one per region)",
                      spec.file_num, spec.profile.name, regions),
          "drop --file-num");
    }
    spec.file_num = regions;
  }
  if (o.size) {
    auto size = Wrap("--size", ParseSizeOrShare(*o.size), "32G or --size 50%");
    if (!size.ok()) return size.error();
    if (size->share == 0 && size->bytes == 0) {
      return UsageError("--size: 0 is not a positive size", "try --size 1G");
    }
    spec.size = *size;
    spec.size_given = true;
  }
  if (o.interval) {  // (checked against --steady-round below)
    auto interval = Wrap("--interval", ParseDuration(*o.interval), "1s");
    if (!interval.ok()) return interval.error();
    if (*interval < std::chrono::milliseconds(1)) {
      return UsageError(
          fmt::format("--interval: {} is shorter than the 1 ms minimum",
                      *o.interval),
          "try --interval 1s");
    }
    spec.interval = *interval;
  }
  auto tags = ParseTagOptions(o.tags);
  if (!tags.ok()) return tags.error();
  if (Status priced = AddPriceTag(o.price, *tags); !priced.ok()) {
    return priced.error();
  }
  built.tags = std::move(*tags);
  if (spec.until_steady && spec.steady_round < spec.interval) {
    return UsageError("--steady-round is shorter than one --interval",
                      "a round holds whole intervals; try --steady-round 60s");
  }
  if (spec.time.count() != 0 && spec.interval > spec.time) {
    built.warnings.push_back(fmt::format(
        "--interval {} is longer than the run ({} {}): the run is one "
        "partial interval of {}; use --interval {} or shorter for a time "
        "series",
        FormatDuration(spec.interval),
        spec.until_steady ? "--max-time" : "--time", FormatDuration(spec.time),
        FormatDuration(spec.time), FormatDuration(spec.time)));
  }
  if (Status fits = CheckRateFitsRun(spec); !fits.ok()) return fits.error();
  if (o.detect_throttle) {
    if (Status throttle = CheckDetectThrottle(o, spec); !throttle.ok()) {
      return throttle.error();
    }
    spec.detect_throttle = true;
  }
  spec.keep_files = o.keep_files;
  spec.continue_on_error = o.continue_on_error;
  spec.verify = o.verify;
  if ((engine->capabilities & kCapNvmeCommands) != 0 &&
      (spec.verify || spec.fsync_every != 0 || spec.fsync_end ||
       !spec.profile.empty())) {
    return UsageError(
        fmt::format("{}: the {} engine sends NVMe read and write commands "
                    "only; an NVMe generic device has no fsync and no plain "
                    "read for the check",
                    spec.verify             ? "--verify"
                    : !spec.profile.empty() ? "--profile"
                                            : "fsync options",
                    spec.engine),
        "drop them, or run on the namespace's block device /dev/nvmeXnY "
        "with --engine io_uring");
  }
  if (spec.verify && !Writes(spec.mode) &&
      (engine->capabilities & kCapDiskless)) {
    return UsageError(
        fmt::format("--verify: the {} engine keeps no data, so {} has "
                    "nothing to check",
                    spec.engine, ModeName(spec.mode)),
        "with --engine null, --verify measures the cost of stamping writes: "
        "use --mode rndwr");
  }
  if (spec.verify && spec.shared_buffer) {
    return UsageError(
        "--shared-buffer: --verify stamps each block it writes with its own "
        "header, which IOs in flight sharing one buffer would overwrite",
        "drop one of them");
  }
  spec.quiet = o.quiet;
  spec.allow_destroy = o.allow_destroy;
  spec.targets = o.targets;
  if (o.json) {
    if (o.json->empty()) {
      return UsageError("--json: empty path",
                        "try --json run.json or --json -");
    }
    spec.json_path = *o.json;
  }
  return built;
}

}  // namespace flashmark
