#include "system/block_latency_tracer.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>

#include "common/units.h"
#include "engine/engine_registry.h"
#include "model/io_pattern.h"

namespace flashmark {
namespace {

// Fewer, larger drains cost the run less; the workers' logs hold 64k IOs
// each (past a million IOs a second from one worker at this pace) and the
// kernel's buffer a few hundred milliseconds of events.
constexpr auto kDrainEvery = std::chrono::milliseconds(50);

bool AllBlockDevices(std::span<const IoFile> files) {
  return std::ranges::all_of(files, [](const IoFile& file) {
    struct stat st {};
    return fstat(file.fd, &st) == 0 && S_ISBLK(st.st_mode);
  });
}

}  // namespace

std::unique_ptr<BlockLatencyTracer> LatencyTracerFor(
    const JobSpec& spec, std::span<const IoFile> files, std::string& note) {
  using Trace = JobSpec::TraceLatency;
  if (spec.trace_latency == Trace::kOff || files.empty()) return nullptr;
  const EngineInfo* engine = FindEngine(spec.engine);
  constexpr uint32_t kNotBlockRequests =
      kCapDiskless | kCapMemoryMapped | kCapNvmeCommands;
  const bool blocks =
      engine != nullptr && (engine->capabilities & kNotBlockRequests) == 0;
  if (spec.trace_latency == Trace::kAuto &&
      !(blocks && spec.direct && AllBlockDevices(files))) {
    return nullptr;
  }
  if (!blocks) {
    note = fmt::format(
        "--trace-latency: the {} engine's IO is not block requests; not "
        "traced",
        spec.engine);
    return nullptr;
  }
  auto tracer = BlockLatencyTracer::Start(
      files,
      TraceSample::OneIn(spec.trace_sample, MaxBlockSize(spec.block_sizes)));
  if (!tracer.ok()) {
    // Auto says nothing where tracing is not allowed; `on` says why.
    if (spec.trace_latency == Trace::kAuto) return nullptr;
    note =
        tracer.error().message +
        (tracer.error().hint.empty() ? "" : " (" + tracer.error().hint + ")") +
        "; the run goes on without the latency split";
    return nullptr;
  }
  if (!spec.direct) {
    note =
        "--trace-latency without --direct: IO the page cache serves "
        "never reaches the block layer and counts as untraced";
  }
  return std::move(*tracer);
}

Result<std::unique_ptr<BlockLatencyTracer>> BlockLatencyTracer::Start(
    std::span<const IoFile> files, TraceSample sample) {
  auto sectors = TargetSectors::Map(files);
  if (!sectors.ok()) return sectors.error();
  // Whether the workers' clock is the time-stamp counter decides the
  // trace's clock; the runner's own calibration times the spans.
  auto trace = BlockTrace::Start(sectors->devices(), CycleClock::Calibrate(),
                                 "--trace-latency", 0, sample.mask);
  if (!trace.ok()) return trace.error();
  return std::unique_ptr<BlockLatencyTracer>(
      new BlockLatencyTracer(std::move(*sectors), std::move(*trace), sample));
}

BlockLatencyTracer::~BlockLatencyTracer() { End(); }

void BlockLatencyTracer::Begin(std::span<IoLog* const> logs,
                               const CycleClock& clock) {
  std::lock_guard begin_lock(mutex_);
  join_ = std::make_unique<LatencyJoin>(clock);
  logs_.assign(logs.begin(), logs.end());
  dropped_seen_.assign(logs_.size(), 0);
  dropped_counted_ = 0;
  logged_ = followed_ = 0;
  // Before the run (or left by an earlier one of this process): not its IO.
  trace_->Drain();
  reader_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "fm-trace");
    std::unique_lock lock(mutex_);
    while (!ended_) {
      wake_.wait_for(lock, kDrainEvery);
      if (!ended_) DrainLocked();
    }
  });
}

void BlockLatencyTracer::DrainLocked() {
  // The logs first: every IO drained now was reaped after its requests
  // completed, so their events are in the trace drained next.
  // An IO that cannot be placed counts as untraced where the sample would
  // have followed it by its offset; of those the logs dropped unseen, 1 in
  // the sample's N.
  placed_.clear();
  uint64_t dropped = 0;
  for (size_t k = 0; k < logs_.size(); ++k) {
    logged_ += logs_[k]->Drain([this](const LoggedIo& io) {
      const auto place = sectors_.Find(io.file, io.offset, io.length);
      if (!sample_.Follows(place ? place->sector : io.offset / 512)) return;
      ++followed_;
      if (!place) {
        join_->AddUntraced(1);
        return;
      }
      placed_.push_back({place->dev, place->sector, place->sectors,
                         io.submit_ticks, io.done_ticks});
    });
    dropped_seen_[k] = logs_[k]->dropped();
    dropped += dropped_seen_[k];
  }
  const uint64_t dropped_sampled = dropped / sample_.one_in;
  join_->AddUntraced(dropped_sampled - dropped_counted_);
  dropped_counted_ = dropped_sampled;
  for (const BlockEvent& event : trace_->Drain()) join_->AddEvent(event);
  for (const PlacedIo& io : placed_) join_->AddIo(io);
}

LatencySplit BlockLatencyTracer::Take() {
  std::lock_guard lock(mutex_);
  if (!join_) return {};
  DrainLocked();
  return ended_ ? join_->Finish() : join_->Take();
}

void BlockLatencyTracer::End() {
  {
    std::lock_guard lock(mutex_);
    ended_ = true;
  }
  wake_.notify_all();
  if (reader_.joinable()) reader_.join();
}

std::string BlockLatencyTracer::EndNote() {
  std::lock_guard lock(mutex_);
  if (followed_ == 0 && logged_ != 0) {
    return fmt::format(
        "--trace-sample {}: none of the run's {} IOs lay where the sample "
        "looks (the first {} of every {} of the disk); --trace-sample 1 "
        "traces every IO",
        sample_.one_in, logged_, FormatBytes(sample_.WindowBytes()),
        FormatBytes(sample_.WindowBytes() * sample_.one_in));
  }
  uint64_t log_full = 0;
  for (const uint64_t dropped : dropped_seen_) log_full += dropped;
  const uint64_t overwritten = trace_->Overwritten();
  if (log_full == 0 && overwritten == 0) return "";
  return fmt::format(
      "--trace-latency fell behind the run: the kernel overwrote {} block "
      "events before they were read and {} IOs found their log full; the IOs "
      "they belong to count as untraced (a loaded machine starves the "
      "tracer's thread)",
      overwritten, log_full);
}

}  // namespace flashmark
