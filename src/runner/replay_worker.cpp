#include "runner/replay_worker.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "analysis/replay_fidelity.h"
#include "common/clock.h"
#include "engine/engine_registry.h"
#include "runner/sampler_priority.h"
#include "workload/data_filler.h"

namespace flashmark {
namespace {

constexpr uint64_t kReplayPollNs = 20'000;
constexpr uint64_t kReplayMaxSleepNs = 10'000'000;

}  // namespace

ReplayWorker::ReplayWorker(const JobSpec& spec, const ReplayPlan& plan,
                           std::span<const IoFile> files, RunControl& control,
                           const CycleClock& clock)
    : spec_(spec),
      plan_(plan),
      files_(files),
      control_(control),
      clock_(clock),
      measures_(std::make_unique<WorkerMeasures>()),
      fidelity_(plan.mean_interarrival_ns,
                static_cast<uint64_t>(std::max<int64_t>(
                    0, static_cast<int64_t>(spec.interval.count())))) {}

ReplayWorker::~ReplayWorker() { engine_.reset(); }

std::string ReplayWorker::EngineSetupText() const {
  return engine_ ? engine_->SetupText() : setup_text_;
}

Status ReplayWorker::Prepare() {
  const EngineInfo* info = FindEngine(spec_.engine);
  if (info == nullptr) {
    return UsageError(fmt::format("unknown engine \"{}\"", spec_.engine),
                      "engines: " + EngineNames());
  }
  engine_ = info->create();
  async_ = (engine_->capabilities() & kCapAsync) != 0;
  depth_ = async_ ? std::max(1, plan_.depth) : 1;
  auto pool = IoBufferPool::Create(static_cast<size_t>(depth_),
                                   std::max(plan_.longest_io, uint32_t{4096}),
                                   spec_.huge_page_buffers);
  if (!pool.ok()) return pool.error();
  buffers_ = std::move(pool.value());
  DataFiller filler(spec_.data, spec_.seed);
  std::vector<IoBuffer> buffers;
  units_.resize(static_cast<size_t>(depth_));
  for (size_t i = 0; i < units_.size(); ++i) {
    filler.Fill(buffers_.buffer(i), buffers_.buffer_bytes());
    buffers.push_back({buffers_.buffer(i), buffers_.buffer_bytes()});
    units_[i].buffer = buffers_.buffer(i);
    units_[i].buffer_index = static_cast<uint32_t>(i);
    units_[i].slot = static_cast<uint32_t>(i);
    free_units_.push_back(&units_[i]);
  }
  completed_.resize(units_.size());
  for (const IoFile& file : files_) {
    struct stat st {};
    block_device_.push_back(file.fd >= 0 && fstat(file.fd, &st) == 0 &&
                            S_ISBLK(st.st_mode));
  }
  pending_.reserve(units_.size());
  prefetch_ = std::make_unique<TracePrefetcher>(*plan_.ios);
  first_io_ = prefetch_->Next();
  flusher_ =
      std::make_unique<ReplayFlusher>(files_, measures_->fsyncs, control_);
  return engine_->Prep({.files = files_,
                        .depth = depth_,
                        .buffers = buffers,
                        .tuning = spec_.tuning});
}

void ReplayWorker::Fail(const std::string& message, uint32_t file,
                        uint64_t offset, int error_number) {
  measures_->errors.Add(1);
  const std::string& path = files_[file].path;
  control_.Fail(
      RunError{error_number != 0
                   ? fmt::format("{} ({}) {} at offset {}", message,
                                 std::strerror(error_number), path, offset)
                   : fmt::format("{} {} at offset {}", message, path, offset),
               path, offset, error_number});
}

void ReplayWorker::CompleteUnit(IoUnit* unit, uint64_t now_ticks) {
  const uint64_t latency = clock_.SpanNs(unit->submit_ticks, now_ticks);
  if (unit->result == static_cast<int64_t>(unit->length)) {
    if (unit->op == IoOp::kRead) {
      measures_->read_latency.Record(latency);
      measures_->reads.Add(unit->length);
      ++issued_.reads;
      issued_.read_bytes += unit->length;
    } else {
      measures_->write_latency.Record(latency);
      measures_->writes.Add(unit->length);
      ++issued_.writes;
      issued_.write_bytes += unit->length;
    }
  } else {
    const char* verb = unit->op == IoOp::kRead ? "reading" : "writing";
    Fail(unit->result < 0 ? verb
                          : fmt::format("short transfer ({} of {} bytes) {}",
                                        unit->result, unit->length, verb),
         unit->file, unit->offset,
         unit->result < 0 ? static_cast<int>(-unit->result) : 0);
  }
  free_units_.push_back(unit);
}

void ReplayWorker::ReapSome(int min) {
  if (engine_failed_ || in_flight_ == 0) return;
  Result<int> reaped = engine_->Reap(min, depth_, completed_.data());
  if (!reaped.ok()) {
    control_.Fail(RunError{reaped.error().message, "", 0, 0});
    engine_failed_ = true;
    in_flight_ = 0;
    return;
  }
  const uint64_t now = clock_.Now();
  for (int i = 0; i < *reaped; ++i) CompleteUnit(completed_[i], now);
  in_flight_ -= *reaped;
}

void ReplayWorker::DrainAll() {
  while (in_flight_ > 0 && !engine_failed_) ReapSome(1);
}

bool ReplayWorker::SubmitPending(uint64_t start_ns) {
  if (pending_.empty()) return true;
  const uint64_t submit_ticks = clock_.Now();
  const int64_t issued_ns = static_cast<int64_t>(NowNs() - start_ns);
  for (const PendingIo& io : pending_) io.unit->submit_ticks = submit_ticks;
  Result<int> committed = engine_->Commit();
  if (!committed.ok()) {
    control_.Fail(RunError{committed.error().message, "", 0, 0});
    engine_failed_ = true;
    pending_.clear();
    return false;
  }
  // All of them are the engine's now (what the kernel did not take yet
  // goes in with the next Commit() or Reap()).
  for (const PendingIo& io : pending_) {
    ++in_flight_;
    fidelity_.Add({.intended_ns = io.intended_ns,
                   .issued_ns = issued_ns,
                   .achieved_depth = static_cast<uint32_t>(in_flight_),
                   .recorded_depth = io.recorded_depth});
  }
  pending_.clear();
  return true;
}

void ReplayWorker::WaitUntilNs(uint64_t deadline_ns) {
  const uint64_t spin = spin_budget_.Take(NowNs(), deadline_ns);
  for (;;) {
    const uint64_t now = NowNs();
    if (now >= deadline_ns || control_.stopping()) return;
    if (in_flight_ > 0) ReapSome(0);
    // Sleeps wake microseconds late: the last stretch is spun
    // (runner/spin_budget.h).
    if (deadline_ns - now <= spin) continue;
    SleepUntilNs(
        std::min(deadline_ns - spin,
                 now + (in_flight_ > 0 ? kReplayPollNs : kReplayMaxSleepNs)));
  }
}

bool ReplayWorker::Discard(uint32_t file, uint64_t offset, uint32_t length) {
  const int fd = files_[file].fd;
  int done = 0;
  if (block_device_[file]) {
    uint64_t range[2] = {offset, length};
    done = ioctl(fd, BLKDISCARD, range);
  } else {
    done = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                     static_cast<off_t>(offset), static_cast<off_t>(length));
  }
  if (done != 0) {
    Fail("discarding", file, offset, errno);
    return false;
  }
  ++issued_.discards;
  issued_.discard_bytes += length;
  return true;
}

void ReplayWorker::Run() {
  const RunControl::Window window = control_.WaitForStart();
  const uint64_t start_ns = window.start_ns;
  pthread_setname_np(pthread_self(), "fm-replay");
  const bool timed = plan_.timing.timed();
  // A timed replay runs ahead of other work (SCHED_FIFO 1 where allowed,
  // as the sampler): a sleeping thread of normal priority woke
  // milliseconds late on this loaded 2-core machine.
  std::optional<SamplerPriority> on_time;
  if (timed) on_time.emplace();
  const bool per_io_cap = plan_.recorded_depths;
  RecordedDepthCounter recorded_depths;
  for (const TracedIo* next = first_io_;
       next != nullptr && !control_.stopping(); next = prefetch_->Next()) {
    const TracedIo& io = *next;
    ReplayIoRecord record;
    record.recorded_depth = per_io_cap ? recorded_depths.Next(io) : 0;
    if (timed) {
      record.intended_ns = plan_.timing.IntendedNs(io.issue_ns);
      const uint64_t due_ns =
          start_ns + static_cast<uint64_t>(record.intended_ns);
      if (NowNs() < due_ns) {
        // Not due yet: what is due goes in now, in one system call.
        if (!SubmitPending(start_ns)) break;
        WaitUntilNs(due_ns);
        if (control_.stopping()) break;
      }
    }
    const TracePlacement& placement = plan_.placements[io.device];
    const auto [file, offset] =
        PlaceTracedIo(placement, plan_.map, io.offset, io.length);
    if (io.op == TraceOp::kFlush || io.op == TraceOp::kDiscard) {
      if (!SubmitPending(start_ns)) break;
      record.issued_ns = static_cast<int64_t>(NowNs() - start_ns);
      record.achieved_depth = 1;
      fidelity_.Add(record);
      if (io.op == TraceOp::kFlush) {
        // On the flusher's thread; a failure stops the run through
        // RunControl, as an IO's would.
        flusher_->Request(placement.first_file, placement.files > 1);
      } else if (!Discard(file, offset, io.length)) {
        break;
      }
      continue;
    }
    if (!timed) {
      const int cap =
          per_io_cap ? std::min<int>(depth_, static_cast<int>(std::max(
                                                 1u, record.recorded_depth)))
                     : depth_;
      while (in_flight_ + static_cast<int>(pending_.size()) >= cap &&
             !engine_failed_) {
        if (!SubmitPending(start_ns)) break;
        ReapSome(1);
      }
    }
    while (free_units_.empty() && !engine_failed_) {
      if (!SubmitPending(start_ns)) break;
      ReapSome(1);
    }
    if (engine_failed_) break;
    IoUnit* unit = free_units_.back();
    free_units_.pop_back();
    unit->op = io.op == TraceOp::kRead ? IoOp::kRead : IoOp::kWrite;
    unit->file = file;
    unit->offset = offset;
    unit->length = io.length;
    unit->intended_ns = 0;
    unit->submit_ticks = clock_.Now();
    // A synchronous engine does the IO in Queue(): its submission is now.
    if (!async_) record.issued_ns = static_cast<int64_t>(NowNs() - start_ns);
    const QueueResult queued = engine_->Queue(unit);
    if (queued == QueueResult::kBusy) {  // cannot be: units <= depth
      free_units_.push_back(unit);
      control_.Fail(RunError{"the engine refused an IO within its depth",
                             files_[file].path, offset, 0});
      break;
    }
    if (queued == QueueResult::kCompleted) {  // a synchronous engine
      if (async_) record.issued_ns = static_cast<int64_t>(NowNs() - start_ns);
      record.achieved_depth = 1;
      fidelity_.Add(record);
      CompleteUnit(unit, clock_.Now());
      continue;
    }
    pending_.push_back({unit, record.intended_ns, record.recorded_depth});
  }
  if (!engine_failed_) SubmitPending(start_ns);
  DrainAll();
  issued_.flushes = flusher_->Finish();
  if (auto failed = prefetch_->error()) {
    control_.Fail(RunError{failed->message, "", 0, 0});
  }
  control_.WorkerFinished();
  setup_text_ = engine_->SetupText();
  engine_.reset();
}

}  // namespace flashmark
