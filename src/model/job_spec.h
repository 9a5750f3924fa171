// JobSpec: the typed, validated description of one workload, built from the
// command line (or a campaign cell) and then read-only. Sizes in bytes,
// times in nanoseconds. Holds no resources; safe to copy across threads.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "common/units.h"
#include "model/analysis_settings.h"
#include "model/app_profile.h"
#include "model/engine_tuning.h"
#include "model/io_pattern.h"

namespace flashmark {

struct JobSpec {
  IoMode mode = IoMode::kRndWr;
  double read_fraction = 0.6;  // kRndRw only; sysbench's rw-ratio 1.5
  std::vector<BlockSizeWeight> block_sizes{{16 * 1024, 100}};
  int threads = 1;
  int iodepth = 1;
  bool direct = false;
  std::string engine = "psync";
  EngineTuning tuning;
  // --cpus-allowed: the CPUs the worker threads may run on, sorted; empty
  // = wherever the scheduler puts them. cpus_split (--cpus-allowed-policy
  // split): worker k runs on cpus_allowed[k % size] alone.
  std::vector<int> cpus_allowed;
  bool cpus_split = false;

  // --profile: a database's IO mix (model/app_profile.h), which then sets
  // the IO pattern, sizes and syncs in place of --mode, --bs and the fsync
  // options; empty: none.
  AppProfile profile;

  uint64_t fsync_every = 0;  // writes per worker between fsyncs; 0 = never
  FsyncMode fsync_mode = FsyncMode::kFsync;
  bool fsync_end = false;

  std::chrono::nanoseconds time{0};  // 0 = no time limit
  uint64_t io_limit = 0;             // IOs in all; 0 = none
  uint64_t bytes_limit = 0;          // bytes in all; 0 = none
  Rate rate;                         // zero = unlimited
  // Bursts (--thinktime-iotime, --thinktime): from the run's start, IO for
  // think_io_time, then none (the IOs in flight complete) for think_time,
  // and again; both zero = IO all the time.
  std::chrono::nanoseconds think_io_time{0};
  std::chrono::nanoseconds think_time{0};
  // --detect-throttle: IO and idle gaps by MakeThrottleSchedule(time,
  // interval) (model/throttle_schedule.h), and the run's burst, baseline and
  // refill found by analysis/throttle_finder.h.
  bool detect_throttle = false;

  Distribution distribution;
  uint64_t seed = 0;
  bool seed_given = false;
  DataPattern data;
  // --shared-buffer: every IO of a worker uses one buffer, filled once
  // (sysbench's way), instead of one buffer per IO in flight refreshed per
  // write; writes then all carry the same bytes.
  bool shared_buffer = false;
  // --mem: true (thp, the default): each worker's buffers come from one
  // mapping offered to transparent huge pages, so a buffer is physically
  // contiguous and a large IO travels as one segment; false (malloc, fio's
  // default): ordinary 4 KiB pages. Runs stored before the option had
  // ordinary pages.
  bool huge_page_buffers = true;

  std::vector<std::string> targets;  // empty only for a diskless engine
  int file_num = 128;
  SizeOrShare size{2ull << 30, 0};  // file-set total, or offset range
  bool size_given = false;
  bool keep_files = false;
  std::vector<std::string> allow_destroy;

  std::chrono::nanoseconds interval{std::chrono::seconds(1)};
  bool until_steady = false;  // stop once SNIA steady state holds (time = max)
  std::chrono::nanoseconds steady_round{std::chrono::seconds(60)};
  // With until_steady: run at least this long (0: no minimum), then stop
  // only once the run's headline (analysis/headline.h: the final regime
  // after its warm-up) is steady, so that a cliff inside the minimum
  // voids the steady window found before it.
  std::chrono::nanoseconds min_time{0};
  bool continue_on_error = false;
  // Stamp every written block with a checked header, check every block
  // read, and read everything written back after a writing run.
  bool verify = false;
  // --trace-latency: where each IO's time went, from the block layer's
  // tracepoints (model/latency_split.h). kAuto: on for block devices with
  // --direct where tracing is allowed.
  enum class TraceLatency { kAuto, kOn, kOff };
  TraceLatency trace_latency = TraceLatency::kAuto;
  // --trace-sample: trace 1 IO in this many, by its sectors (model/
  // trace_sample.h), a power of two; 1: every IO. Sampled 1 in 16, the
  // tracepoints cost a fast device 5 to 17 % of its IOPS instead of 15 to
  // 33 % (bench/latency-trace-cost.py on a 2-core VM).
  uint32_t trace_sample = 16;
  bool quiet = false;
  std::string json_path;  // "" = none, "-" = stdout
  // A campaign's [analysis] table, for every command that analyses the run.
  AnalysisSettings analysis;
};

}  // namespace flashmark
