#include "campaign/replay_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>
#include <random>

#include "analysis/replay_fidelity.h"
#include "analysis/trace_summary.h"
#include "common/units.h"
#include "common/version.h"
#include "engine/engine_registry.h"
#include "report/console_reporter.h"
#include "report/replay_text.h"
#include "report/text_escape.h"
#include "runner/replay_runner.h"
#include "store/store_file.h"
#include "store/store_observer.h"
#include "store/trace_store.h"
#include "system/environment_capture.h"
#include "system/host_telemetry.h"
#include "system/target_set.h"

namespace flashmark {
namespace {

constexpr int kReplayDefaultDepth = 32;
constexpr int kReplayTimedDepth = 256;
constexpr int kReplayMaxDepth = 4096;

// What the plan needs of a trace's IOs, from one streaming pass.
struct TraceReplayFigures {
  ReplayOpCount ops;
  // Per trace device: its size, or the end of its furthest IO when
  // larger; and its longest IO.
  std::vector<uint64_t> extents;
  std::vector<uint32_t> longest;
  uint32_t longest_data = 4096;  // reads and writes (buffers)
  uint32_t common_size = 0;      // the most common read or write size
  bool completions = false;      // some IO has a completion time
  uint32_t max_recorded_depth = 0;
  TraceTimes interarrival_ns;  // the trace's time between issues
};

void CountTraceOp(const TracedIo& io, ReplayOpCount& ops) {
  switch (io.op) {
    case TraceOp::kRead:
      ++ops.reads;
      ops.read_bytes += io.length;
      break;
    case TraceOp::kWrite:
      ++ops.writes;
      ops.write_bytes += io.length;
      break;
    case TraceOp::kFlush:
      ++ops.flushes;
      break;
    case TraceOp::kDiscard:
      ++ops.discards;
      ops.discard_bytes += io.length;
      break;
  }
}

// Reads the trace once, chunk by chunk, then rewinds it for the replay.
Result<TraceReplayFigures> MeasureTrace(TraceReader& reader) {
  TraceReplayFigures f;
  const BlockIoTrace& header = reader.header();
  for (const TraceDevice& device : header.devices) {
    f.extents.push_back(device.bytes);
  }
  f.longest.assign(header.devices.size(), 0);
  std::map<uint32_t, uint64_t> sizes;
  RecordedDepthCounter depths;
  uint64_t ios = 0;
  int64_t last_issue = 0;
  TraceTimesAccumulator gaps;
  std::vector<TracedIo> chunk;
  for (;;) {
    if (Status read = reader.Next(chunk); !read.ok()) return read.error();
    if (chunk.empty()) break;
    for (const TracedIo& io : chunk) {
      CountTraceOp(io, f.ops);
      if (io.device < f.extents.size()) {
        f.extents[io.device] =
            std::max(f.extents[io.device], io.offset + io.length);
        f.longest[io.device] = std::max(f.longest[io.device], io.length);
      }
      if (io.op == TraceOp::kRead || io.op == TraceOp::kWrite) {
        ++sizes[io.length];
        f.longest_data = std::max(f.longest_data, io.length);
      }
      // Depths as RecordedQueueDepths counts them; they are used only
      // when some IO has a completion time.
      f.max_recorded_depth = std::max(f.max_recorded_depth, depths.Next(io));
      if (io.complete_ns >= 0) f.completions = true;
      if (ios > 0) gaps.Add(io.issue_ns - last_issue);
      last_issue = io.issue_ns;
      ++ios;
    }
  }
  f.interarrival_ns = gaps.Result();
  if (!sizes.empty()) {
    f.common_size = std::max_element(sizes.begin(), sizes.end(),
                                     [](const auto& a, const auto& b) {
                                       return a.second < b.second;
                                     })
                        ->first;
  }
  if (Status rewound = reader.Rewind(); !rewound.ok()) return rewound.error();
  return f;
}

// The spec the run is recorded with: what the trace does, as a workload.
JobSpec ReplaySpec(const ReplaySettings& settings,
                   const TraceReplayFigures& figures, const std::string& engine,
                   int depth) {
  const ReplayOpCount& ops = figures.ops;
  JobSpec spec;
  const bool writes = ops.writes + ops.discards > 0;
  const bool reads = ops.reads > 0;
  spec.mode = writes && reads ? IoMode::kRndRw
              : writes        ? IoMode::kRndWr
                              : IoMode::kRndRd;
  if (spec.mode == IoMode::kRndRw) {
    spec.read_fraction = static_cast<double>(ops.reads) /
                         static_cast<double>(ops.reads + ops.writes);
  }
  if (figures.common_size > 0) {
    spec.block_sizes = {{figures.common_size, 100}};
  }
  spec.engine = engine;
  spec.iodepth = depth;
  spec.direct = settings.direct;
  spec.targets = settings.targets;
  spec.allow_destroy = settings.allow_destroy;
  // A directory TARGET gets a file set of --file-num files spanning the
  // largest traced device (and a MiB per file more: each file's size is
  // rounded down to the block size), kept for the next replay.
  spec.file_num = settings.file_num;
  uint64_t largest = 0;
  for (const uint64_t extent : figures.extents) {
    largest = std::max(largest, extent);
  }
  spec.size = SizeOrShare{
      largest + static_cast<uint64_t>(settings.file_num) * (1u << 20), 0};
  spec.size_given = true;
  spec.keep_files = true;
  spec.time = std::chrono::nanoseconds(0);
  spec.quiet = settings.quiet;
  spec.seed = std::random_device{}() * 0x100000001ull;
  return spec;
}

Result<std::string> ChooseReplayEngine(const std::string& asked, int depth) {
  if (!asked.empty()) {
    const EngineInfo* engine = FindEngine(asked);
    if (engine == nullptr ||
        (engine->capabilities &
         (kCapDiskless | kCapNvmeCommands | kCapMemoryMapped)) != 0) {
      return UsageError(
          fmt::format("--engine: \"{}\" cannot replay a trace", asked),
          "use --engine io_uring, libaio or psync");
    }
    if (Status probed = ProbeEngine(*engine, depth); !probed.ok()) {
      return probed.error();
    }
    return asked;
  }
  for (const char* name : {"io_uring", "libaio"}) {
    const EngineInfo* engine = FindEngine(name);
    if (engine != nullptr && ProbeEngine(*engine, depth).ok()) {
      return std::string(name);
    }
  }
  return std::string("psync");
}

}  // namespace

Result<ReplayRun> PerformReplay(const ReplaySettings& settings) {
  std::ostream& console = settings.console ? *settings.console : std::cout;
  if (settings.targets.empty()) {
    return UsageError("replay: a TARGET is required",
                      "flashmark replay TRACE FILE|DEVICE...");
  }
  if (!settings.no_db) {
    if (Status usable = CheckStoreBeforeWriting(settings.database);
        !usable.ok()) {
      return usable.error();
    }
  }
  // The trace is read chunk by chunk, on a connection of its own: once
  // here for the plan's figures, once by the replay (ahead of it, on a
  // thread of its own).
  auto reader = TraceReader::Open(settings.database, settings.trace_id);
  if (!reader.ok()) return reader.error();
  const BlockIoTrace& trace = reader->header();
  if (trace.devices.size() != settings.targets.size()) {
    return UsageError(
        fmt::format("trace {} has {} device{} but {} TARGET{} given",
                    settings.trace_id, trace.devices.size(),
                    trace.devices.size() == 1 ? "" : "s",
                    settings.targets.size(),
                    settings.targets.size() == 1 ? " is" : "s are"),
        "name one TARGET per traced device: device i is replayed onto TARGET "
        "i (`flashmark show --trace ID` lists them)");
  }
  auto figures = MeasureTrace(*reader);
  if (!figures.ok()) return figures.error();
  const ReplayOpCount& trace_ops = figures->ops;
  // A timed replay is paced by the trace's times, not by a depth: without
  // recorded depths it gets room for bursts (an fio job at --rate_iops
  // issues its IOs in bursts: with 32 units the replay of one at 20k IOPS
  // waited for free units, p99 issue error 3.2 ms against 0.28 ms).
  const int default_depth =
      settings.timing.timed() ? kReplayTimedDepth : kReplayDefaultDepth;
  int depth = settings.iodepth > 0 ? settings.iodepth : default_depth;
  if (figures->completions) {
    // afap holds each IO to its recorded depth; a timed replay only needs
    // room: a target slower than the traced device has more in flight at
    // the same times (SQLite's commits replayed within the trace's depth
    // of 4 waited for free units: p99 issue error 12 ms).
    const int recorded_max = static_cast<int>(figures->max_recorded_depth);
    depth = settings.timing.timed() ? std::max(recorded_max, default_depth)
                                    : recorded_max;
  }
  depth = std::clamp(depth, 1, kReplayMaxDepth);
  auto engine = ChooseReplayEngine(settings.engine, depth);
  if (!engine.ok()) return engine.error();
  const JobSpec spec = ReplaySpec(settings, *figures, *engine, depth);

  const SafetyContext safety = CaptureSafetyContext(settings.database);
  auto targets = TargetSet::Open(spec, safety, console);
  if (!targets.ok()) return targets.error();
  const std::vector<uint64_t>& extents = figures->extents;
  std::vector<TracePlacement> placements;
  uint32_t next_file = 0;
  for (size_t i = 0; i < extents.size(); ++i) {
    const TargetInfo& info = targets->info()[i];
    TracePlacement placement;
    placement.first_file = next_file;
    placement.files = info.kind == "file set"
                          ? static_cast<uint32_t>(std::max(1, info.file_count))
                          : 1;
    placement.file_bytes = targets->files()[next_file].size;
    placement.traced_extent = extents[i];
    next_file += placement.files;
    placements.push_back(placement);
    const std::string& path = settings.targets[i];
    const uint32_t longest = figures->longest[i];
    if (longest > placement.file_bytes) {
      return UsageError(
          fmt::format("{} ({}{}) is smaller than an IO of the trace ({})",
                      TerminalText(path), FormatBytes(placement.file_bytes),
                      placement.files > 1 ? " a file" : "",
                      FormatBytes(longest)),
          "replay onto a larger target");
    }
    if (extents[i] > placement.span() &&
        settings.map == TraceOffsetMap::kNone) {
      return UsageError(
          fmt::format("trace {} device {} ({}) spans {} ({} bytes) but {} "
                      "has {} ({} bytes)",
                      settings.trace_id, i, TerminalText(trace.devices[i].name),
                      FormatBytes(extents[i]), extents[i], TerminalText(path),
                      FormatBytes(placement.span()), placement.span()),
          "--map linear, modulo or wrap maps the trace's offsets onto the "
          "smaller target (see `flashmark replay --help`)");
    }
  }

  RunResult run;
  run.spec = spec;
  run.command_line = settings.command_line;
  run.tool_version = kToolVersion;
  run.git_revision = kGitRevision;
  run.environment = CaptureHostEnvironment();
  run.environment.targets = targets->info();
  ReplayOutcome& outcome = run.replay.emplace();
  outcome.trace_id = settings.trace_id;
  outcome.trace_source = trace.source;
  outcome.timing = ReplayTimingName(settings.timing);
  outcome.map = TraceOffsetMapName(settings.map);
  outcome.trace_ops = trace_ops;
  if (trace_ops.flushes > 0) {
    outcome.notes.push_back(
        "flushes: fdatasync() of the file (syncfs() of a file set's file "
        "system) on a thread of its own, the IOs after it not waiting for "
        "it");
  }
  if (trace_ops.discards > 0) {
    outcome.notes.push_back(
        "discards: BLKDISCARD on a block device, fallocate(PUNCH_HOLE) on a "
        "file, synchronous");
  }
  if (!figures->completions) {
    outcome.notes.push_back(fmt::format(
        "the trace has no completion times: at most {} IOs in flight{}", depth,
        settings.iodepth > 0 ? " (--iodepth)" : " (the default; --iodepth)"));
  }
  if (!trace.complete) {
    outcome.notes.push_back("the trace is incomplete: IOs are missing from it");
  }

  ReplayPlan plan;
  plan.ios = &*reader;
  plan.io_count = reader->stored().ios;
  plan.longest_io = figures->longest_data;
  plan.timing = settings.timing;
  plan.map = settings.map;
  plan.placements = placements;
  plan.depth = depth;
  plan.recorded_depths = figures->completions;
  plan.mean_interarrival_ns = figures->interarrival_ns.mean;
  outcome.trace_interarrival_p50_ns = figures->interarrival_ns.p50;
  outcome.trace_interarrival_p99_ns = figures->interarrival_ns.p99;

  std::vector<RunObserver*> observers;
  ConsoleReporter reporter(console, {false, settings.quiet});
  observers.push_back(&reporter);
  std::optional<RunStore> store;
  std::optional<StoreObserver> recorder;
  if (!settings.no_db) {
    auto opened = RunStore::Open(settings.database);
    if (!opened.ok()) return opened.error();
    store.emplace(std::move(*opened));
    recorder.emplace(*store, settings.labels, std::cerr);
    observers.push_back(&*recorder);
  }
  observers.insert(observers.end(), settings.observers.begin(),
                   settings.observers.end());
  HostTelemetry telemetry(run.environment);
  RunHooks hooks;
  hooks.observers = observers;
  hooks.telemetry = &telemetry;
  auto result = ExecuteReplay(std::move(run), plan, targets->files(), hooks);
  if (!result.ok()) return result.error();
  console << ReplayOutcomeText(*result->replay);
  ReplayRun replayed{std::move(*result), 0, false};
  if (recorder) {
    replayed.store_failed = recorder->failed();
    if (!recorder->failed()) replayed.run_id = recorder->run_id();
  }
  return replayed;
}

}  // namespace flashmark
