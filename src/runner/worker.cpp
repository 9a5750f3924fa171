#include "runner/worker.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/clock.h"
#include "engine/engine_registry.h"
#include "model/throttle_schedule.h"

namespace flashmark {
namespace {

// While waiting for a rate-limited start with IO in flight, completions are
// polled this often so their latency stays accurate.
constexpr uint64_t kRatePollNs = 20'000;
constexpr uint64_t kMaxSleepNs = 10'000'000;
constexpr uint64_t kSpinNs = 100'000;

uint64_t Mix(uint64_t seed, uint64_t salt) {
  return seed ^ (salt * 0x9e3779b97f4a7c15ull);
}

}  // namespace

size_t WorkerBufferCount(const JobSpec& spec) {
  if (spec.shared_buffer) return 1;
  const EngineInfo* engine = FindEngine(spec.engine);
  const bool async =
      engine != nullptr && (engine->capabilities & kCapAsync) != 0;
  return async ? static_cast<size_t>(std::max(1, spec.iodepth)) : 1;
}

size_t WorkerBufferBytes(const JobSpec& spec) {
  return IoBufferPool::FilledBytes(WorkerBufferCount(spec),
                                   MaxBlockSize(spec.block_sizes),
                                   spec.huge_page_buffers);
}

// The kernel reports running out of space (or a failing device) as a short
// transfer first; retrying the rest synchronously, as fio does, yields the
// errno that explains it. Error path only. 0 when the retry says nothing.
int Worker::ShortTransferErrno(const IoUnit& unit) const {
  const IoFile& file = files_[unit.file];
  if (file.fd < 0 || unit.result < 0) return 0;
  char* rest = static_cast<char*>(unit.buffer) + unit.result;
  const size_t length = unit.length - unit.result;
  const off_t offset = unit.offset + unit.result;
  const ssize_t done = unit.op == IoOp::kRead
                           ? pread(file.fd, rest, length, offset)
                           : pwrite(file.fd, rest, length, offset);
  return done < 0 && errno != EINVAL ? errno : 0;
}

Worker::Worker(const JobSpec& spec, WorkerPlan plan,
               std::span<const IoFile> files, RunControl& control,
               const CycleClock& clock)
    : spec_(spec),
      plan_(std::move(plan)),
      files_(files),
      control_(control),
      clock_(clock),
      measures_(std::make_unique<WorkerMeasures>()),
      block_sizes_(spec.block_sizes, Mix(plan_.seed, 1)),
      filler_(spec.data, Mix(plan_.seed, 2)),
      op_random_(Mix(plan_.seed, 3)) {}

Worker::~Worker() {
  engine_.reset();  // before the buffers and descriptors it references
  for (const IoFile& file : own_files_) close(file.fd);
}

// Threads sharing one open file contend on its reference count in every
// system call (the kernel takes a reference per call in a multi-threaded
// process). Each worker therefore opens the files again, as fio's separate
// job processes do; where that is refused (an exclusively claimed device)
// it keeps the shared descriptor.
void Worker::OpenOwnFiles() {
  std::vector<IoFile> own;
  for (const IoFile& shared : files_) {
    IoFile file = shared;
    if (shared.fd >= 0) {
      const int flags = fcntl(shared.fd, F_GETFL);
      const std::string proc = "/proc/self/fd/" + std::to_string(shared.fd);
      const int fd =
          flags < 0 ? -1
                    : open(proc.c_str(),
                           (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_CLOEXEC);
      if (fd < 0) {
        for (const IoFile& opened : own) close(opened.fd);
        return;
      }
      file.fd = fd;
    }
    own.push_back(file);
  }
  own_files_ = std::move(own);
  files_ = own_files_;
}

// One buffer per unit (unit i uses buffer i), or with --shared-buffer one
// for all, from one pool (runner/io_buffer_pool.h: when its pages are huge).
Status Worker::AllocateBuffers() {
  const int count = spec_.shared_buffer ? 1 : depth_;
  Result<IoBufferPool> pool = IoBufferPool::Create(
      static_cast<size_t>(count), MaxBlockSize(spec_.block_sizes),
      spec_.huge_page_buffers);
  if (!pool.ok()) return pool.error();
  buffers_ = std::move(pool.value());
  // An engine that moves no data touches a buffer only when a write is
  // filled (each IO) or a read checked (--verify): the pages are made then,
  // not for every unit up front (512 workers x QD256 x 16 KiB is 2 GiB).
  const bool diskless = (engine_->capabilities() & kCapDiskless) != 0;
  const bool untouched = diskless && !verify_setup_ &&
                         (!Writes(spec_.mode) || filler_.refreshes());
  if (!untouched) {
    for (int i = 0; i < count; ++i) {
      filler_.Fill(buffers_.buffer(static_cast<size_t>(i)),
                   buffers_.buffer_bytes());
    }
  }
  units_.resize(depth_);
  for (int i = 0; i < depth_; ++i) {
    const int buffer = spec_.shared_buffer ? 0 : i;
    units_[i].buffer = buffers_.buffer(static_cast<size_t>(buffer));
    units_[i].buffer_index = static_cast<uint32_t>(buffer);
    units_[i].slot = static_cast<uint32_t>(i);
    free_units_.push_back(&units_[i]);
  }
  return OkStatus();
}

std::string Worker::BufferText() const {
  if (buffers_.count() == 0) return "";
  if (buffers_.HugeBytes() > 0) return "IO buffers on 2 MiB pages";
  std::string text = "IO buffers on 4 KiB pages";
  if (buffers_.offered_huge_pages()) {  // asked for and not given: why
    const std::string mode = IoBufferPool::TransparentHugePagesMode();
    text += mode.empty() ? " (transparent huge pages are not in this kernel)"
            : mode == "never" ? " (transparent huge pages are off: never)"
                              : " (no free huge page)";
  }
  return text;
}

std::string Worker::EngineSetupText() const {
  return engine_ ? engine_->SetupText() : setup_text_;
}

bool Worker::PinThread() {
  const std::vector<int>& cpus = spec_.cpus_allowed;
  if (cpus.empty()) return true;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (spec_.cpus_split) {
    CPU_SET(cpus[static_cast<size_t>(plan_.id) % cpus.size()], &set);
  } else {
    for (int cpu : cpus) CPU_SET(cpu, &set);
  }
  if (sched_setaffinity(0, sizeof(set), &set) == 0) return true;
  control_.Fail(
      RunError{fmt::format("--cpus-allowed: pinning worker {} failed: {}",
                           plan_.id, std::strerror(errno)),
               "", 0, errno});
  return false;
}

Status Worker::Prepare() {
  const EngineInfo* info = FindEngine(spec_.engine);
  if (info == nullptr) {
    return UsageError(fmt::format("unknown engine \"{}\"", spec_.engine),
                      "engines: " + EngineNames());
  }
  if (spec_.threads > 1) OpenOwnFiles();
  engine_ = info->create();
  async_ = (engine_->capabilities() & kCapAsync) != 0;
  depth_ = async_ ? std::max(1, spec_.iodepth) : 1;
  const EngineTuning& tuning = spec_.tuning;
  reap_min_ = std::min(tuning.batch_complete_min, depth_);
  reap_max_ = tuning.batch_complete_max > 0
                  ? std::min(tuning.batch_complete_max, depth_)
                  : depth_;
  submit_batch_ = static_cast<size_t>(tuning.batch_submit);  // 0: no cap
  if (Status allocated = AllocateBuffers(); !allocated.ok()) return allocated;
  std::vector<IoBuffer> buffers;
  for (size_t i = 0; i < buffers_.count(); ++i) {
    buffers.push_back({buffers_.buffer(i), buffers_.buffer_bytes()});
  }
  if (Status status = engine_->Prep({.files = files_,
                                     .depth = depth_,
                                     .buffers = buffers,
                                     .tuning = tuning});
      !status.ok()) {
    return status;
  }
  if (verify_setup_) {
    verifier_ =
        std::make_unique<IoVerifier>(*verify_setup_, files_, *measures_, depth_,
                                     MaxBlockSize(spec_.block_sizes));
  }
  batch_.reserve(depth_);
  completed_.resize(depth_);
  file_dirty_.assign(files_.size(), 0);
  sync_mode_ = spec_.fsync_mode;
  if (!spec_.profile.empty()) {
    cycle_ = std::make_unique<ProfileCycle>(spec_.profile, plan_.regions,
                                            Mix(plan_.seed, 5));
  }
  offsets_ =
      MakeOffsetGenerator(PatternOf(spec_.mode), spec_.distribution,
                          plan_.segments, BlockAlignment(spec_.block_sizes),
                          MaxBlockSize(spec_.block_sizes), Mix(plan_.seed, 4));
  return OkStatus();
}

bool Worker::LimitReached() const {
  return (plan_.io_limit != 0 && issued_ios_ >= plan_.io_limit) ||
         (plan_.bytes_limit != 0 && issued_bytes_ >= plan_.bytes_limit);
}

void Worker::Run() {
  const RunControl::Window window = control_.WaitForStart();
  const uint64_t start_ns = window.start_ns;
  next_intended_ns_ = start_ns;
  if (window.stop_ns != 0) {
    stop_ns_ = window.stop_ns;
    const uint64_t now = NowNs();
    const double ahead_ns = stop_ns_ > now ? double(stop_ns_ - now) : 0;
    stop_ticks_ = clock_.Now() +
                  static_cast<uint64_t>(ahead_ns * clock_.TicksPerNs()) + 1;
  }
  // As top and /proc/PID/task show it (15 characters at most).
  pthread_setname_np(pthread_self(),
                     fmt::format("fm-worker-{}", plan_.id % 100000).c_str());
  // On Linux, setpriority() on a thread id sets that thread's nice value
  // (a higher one needs no privilege).
  if (window.worker_nice != 0) {
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), window.worker_nice);
  }
  if (!PinThread()) {
    control_.WorkerFinished();
    return;
  }
  const bool stamp_each = !async_ || depth_ == 1;
  const bool rate_limited = plan_.iops_rate > 0 || plan_.bytes_rate > 0;
  const auto burst_ns = static_cast<uint64_t>(spec_.think_io_time.count());
  const uint64_t period_ns =
      burst_ns + static_cast<uint64_t>(spec_.think_time.count());
  const ThrottleSchedule throttle =
      spec_.detect_throttle ? MakeThrottleSchedule(spec_.time, spec_.interval)
                            : ThrottleSchedule{};
  // 0 while IO may start at `now`, else when it may again (bursts from the
  // run's start; --detect-throttle's load phases).
  const auto idle_until = [&](uint64_t now) -> uint64_t {
    if (period_ns > 0) {
      const uint64_t phase = (now - start_ns) % period_ns;
      return phase >= burst_ns ? now + (period_ns - phase) : 0;
    }
    if (throttle.load.empty()) return 0;
    const uint64_t until = ThrottleIdleUntil(throttle, now - start_ns);
    return until == 0 ? 0 : start_ns + std::min(until, UINT64_MAX - start_ns);
  };
  const bool paced = period_ns > 0 || !throttle.load.empty();
  while (!Stopping()) {
    if (sync_pending_) {
      Drain();
      SyncWrittenFiles();
      continue;
    }
    // Between bursts: the IOs in flight complete, none start, and the
    // worker sleeps to the next burst (unless the drain reached it).
    if (paced && idle_until(NowNs()) != 0) {
      Drain();
      const uint64_t wake = idle_until(NowNs());
      if (wake != 0) WaitUntil(wake);
      continue;
    }
    const uint64_t batch_ticks = stamp_each ? 0 : clock_.Now();
    bool failed = false;
    while (!free_units_.empty() && !sync_pending_ && !LimitReached() &&
           !control_.stopping()) {
      // Rate-limited IO is submitted one at a time, each at its own start.
      if (rate_limited && !batch_.empty()) break;
      if (paced && idle_until(NowNs()) != 0) break;
      // Taken out of the free units at once: a rate-limited wait reaps,
      // which puts other units there.
      IoUnit* unit = free_units_.back();
      free_units_.pop_back();
      const auto put_back = [&] { free_units_.push_back(unit); };
      std::optional<ProfileIo> profiled;
      uint32_t length = 0;
      if (cycle_) {
        profiled = held_io_ ? *held_io_ : cycle_->Next();
        held_io_.reset();
        length = profiled->length;
        unit->file = profiled->where.file;
        unit->offset = profiled->where.offset;
        unit->op = profiled->write ? IoOp::kWrite : IoOp::kRead;
      } else {
        length = block_sizes_.Next();
        const Location where = offsets_->Next(length);
        unit->file = where.file;
        unit->offset = where.offset;
        unit->op =
            spec_.mode == IoMode::kRndRw
                ? (op_random_.Unit() < spec_.read_fraction ? IoOp::kRead
                                                           : IoOp::kWrite)
                : (Writes(spec_.mode) ? IoOp::kWrite : IoOp::kRead);
      }
      unit->length = length;
      if (verifier_) verifier_->Prefetch(*unit);  // while the data is made
      if (unit->op == IoOp::kWrite && filler_.refreshes() &&
          !spec_.shared_buffer) {
        filler_.Fill(unit->buffer, length);
      }
      unit->intended_ns = 0;
      if (rate_limited) {
        unit->intended_ns = NextIntendedNs(length);
        WaitUntil(unit->intended_ns);
        if (Stopping()) {
          put_back();
          break;
        }
      }
      // A block of this write is being written by another IO: reap first.
      if (verifier_ && !BeginVerify(unit)) {
        put_back();
        break;
      }
      unit->submit_ticks = stamp_each ? clock_.Now() : batch_ticks;
      if (profiled && profiled->commit_begins) {
        commit_start_ticks_ = clock_.Now();
      }
      const QueueResult queued = engine_->Queue(unit);
      if (queued == QueueResult::kBusy) {
        if (verifier_ && unit->op == IoOp::kWrite)
          verifier_->AbandonWrite(*unit);
        held_io_ = profiled;
        put_back();
        break;
      }
      ++issued_ios_;
      issued_bytes_ += length;
      if (profiled && profiled->sync_after) {
        sync_pending_ = true;  // after what is in flight (the loop's top)
        sync_mode_ = profiled->sync;
        commit_sync_ = profiled->commit_ends;
      }
      if (queued == QueueResult::kCompleted) {
        const uint64_t now_ticks = clock_.Now();
        Complete(unit, now_ticks);
        // A synchronous engine never empties free_units_: the stop time
        // is checked here, on the tick the completion took anyway.
        if (stop_ticks_ != 0 && now_ticks >= stop_ticks_) break;
      } else {
        batch_.push_back(unit);
        // The IO that fills the queue waits for the reap below.
        if (batch_.size() == submit_batch_ && !free_units_.empty() &&
            !SubmitBatch(true)) {
          failed = true;
          break;
        }
      }
    }
    // With the queue full the worker waits next: the engine submits the
    // last IOs with that wait (io_uring: in one system call).
    const bool waits_next =
        free_units_.empty() && !rate_limited && reap_min_ > 0;
    if (failed || (!batch_.empty() && !SubmitBatch(!waits_next))) break;
    if (in_flight_ > 0) {
      const bool can_issue = !free_units_.empty() && !LimitReached();
      ReapCompletions(rate_limited && can_issue ? 0 : reap_min_);
    } else if (LimitReached()) {
      break;
    }
  }
  Drain();
  if (spec_.fsync_end && Writes(spec_.mode) && !control_.error()) {
    SyncWrittenFiles();
  }
  control_.WorkerFinished();
  // The engine goes here, on this thread, after the run's end is taken:
  // an AIO context's io_destroy waits out an RCU grace period (~30 ms
  // here), which the workers then wait out together, not one after the
  // other in the runner's thread (32 workers took 1 s).
  setup_text_ = engine_->SetupText();
  engine_.reset();
}

uint64_t Worker::NextIntendedNs(uint32_t length) {
  const uint64_t intended = next_intended_ns_;
  const double seconds =
      plan_.iops_rate > 0 ? 1.0 / plan_.iops_rate : length / plan_.bytes_rate;
  next_intended_ns_ += static_cast<uint64_t>(seconds * 1e9);
  return intended;
}

void Worker::WaitUntil(uint64_t intended_ns) {
  for (;;) {
    const uint64_t now = NowNs();
    if (now >= intended_ns || control_.stopping() ||
        (stop_ns_ != 0 && now >= stop_ns_)) {
      return;
    }
    if (in_flight_ > 0) ReapCompletions(0);
    // Sleeps wake tens of microseconds late; the last stretch is spun so
    // that IO starts on time and the schedule latency measures the device.
    if (intended_ns - now <= kSpinNs) continue;
    uint64_t wake =
        std::min(intended_ns - kSpinNs,
                 now + (in_flight_ > 0 ? kRatePollNs : kMaxSleepNs));
    if (stop_ns_ != 0) wake = std::min(wake, stop_ns_);
    SleepUntilNs(wake);
  }
}

// --verify: claims the blocks of a write (and stamps them) or notes the
// state of the blocks a read will check. False: the write must wait.
bool Worker::BeginVerify(IoUnit* unit) {
  if (unit->op == IoOp::kRead) {
    verifier_->BeginRead(*unit);
    return true;
  }
  return verifier_->BeginWrite(*unit);
}

void Worker::Complete(IoUnit* unit, uint64_t now_ticks) {
  WorkerMeasures& m = *measures_;
  const uint64_t latency = clock_.SpanNs(unit->submit_ticks, now_ticks);
  const bool whole = unit->result == static_cast<int64_t>(unit->length);
  if (verifier_) {
    if (unit->op == IoOp::kWrite) {
      verifier_->EndWrite(*unit, whole);
    } else {
      verifier_->EndRead(*unit, whole);
    }
  }
  if (whole) {
    if (unit->op == IoOp::kRead) {
      m.read_latency.Record(latency);
      m.reads.Add(unit->length);
    } else {
      m.write_latency.Record(latency);
      m.writes.Add(unit->length);
      file_dirty_[unit->file] = 1;
      if (spec_.fsync_every != 0 && ++writes_since_sync_ >= spec_.fsync_every) {
        sync_pending_ = true;
      }
    }
    if (unit->intended_ns != 0)
      m.schedule_latency.Record(NowNs() - unit->intended_ns);
    if (io_log_ != nullptr) {
      io_log_->Push({unit->submit_ticks, now_ticks, unit->offset, unit->file,
                     unit->length});
    }
  } else if (unit->result < 0) {
    RecordError(*unit, nullptr, static_cast<int>(-unit->result));
  } else {
    RecordError(*unit, "short transfer", ShortTransferErrno(*unit));
  }
  free_units_.push_back(unit);
}

bool Worker::SubmitBatch(bool commit) {
  const uint64_t now = clock_.Now();
  for (IoUnit* unit : batch_) unit->submit_ticks = now;
  if (commit) {
    Result<int> committed = engine_->Commit();
    if (!committed.ok()) {
      control_.Fail(RunError{committed.error().message, "", 0, 0});
      // The engine keeps the units (io_engine.h); none is reaped or reused.
      engine_failed_ = true;
      batch_.clear();
      in_flight_ = 0;
      return false;
    }
  }
  in_flight_ += static_cast<int>(batch_.size());
  batch_.clear();
  return true;
}

void Worker::ReapCompletions(int min) {
  Result<int> reaped = engine_->Reap(min, reap_max_, completed_.data());
  if (!reaped.ok()) {
    control_.Fail(RunError{reaped.error().message, "", 0, 0});
    in_flight_ = 0;  // the engine lost track; nothing more can be reaped
    return;
  }
  if (*reaped == 0) return;
  const uint64_t now = clock_.Now();
  for (int i = 0; i < *reaped; ++i) Complete(completed_[i], now);
  in_flight_ -= *reaped;
}

void Worker::Drain() {
  if (engine_failed_) return;
  if (!batch_.empty()) {
    // Queued but never submitted: hand them back unissued.
    for (IoUnit* unit : batch_) {
      if (verifier_ && unit->op == IoOp::kWrite) verifier_->AbandonWrite(*unit);
      free_units_.push_back(unit);
    }
    batch_.clear();
  }
  while (in_flight_ > 0) ReapCompletions(1);
}

void Worker::SyncWrittenFiles() {
  bool synced_all = true;
  uint64_t syncs = 0;
  for (uint32_t file = 0; file < file_dirty_.size(); ++file) {
    if (!file_dirty_[file]) continue;
    file_dirty_[file] = 0;
    Status synced = engine_->Sync(file, sync_mode_);
    if (!synced.ok()) {
      measures_->errors.Add(1);
      control_.Fail(RunError{synced.error().message, files_[file].path, 0, 0});
      synced_all = false;
      break;
    }
    measures_->fsyncs.Add(1);
    ++syncs;
  }
  // The commit is durable once its sync returned.
  if (commit_sync_ && synced_all && syncs != 0) {
    measures_->commit_latency.Record(
        clock_.SpanNs(commit_start_ticks_, clock_.Now()));
  }
  commit_sync_ = false;
  writes_since_sync_ = 0;
  sync_pending_ = false;
}

void Worker::RecordError(const IoUnit& unit, const char* what,
                         int error_number) {
  measures_->errors.Add(1);
  const char* verb = unit.op == IoOp::kRead ? "reading" : "writing";
  const std::string& path = files_[unit.file].path;
  std::string message;
  if (error_number != 0) {
    const char* name = strerrorname_np(error_number);
    message = fmt::format("{} ({}) {} {} at offset {} ({} bytes)",
                          name ? name : "error", std::strerror(error_number),
                          verb, path.empty() ? "(no file)" : path, unit.offset,
                          unit.length);
  } else {
    message = fmt::format("{} ({} of {} bytes) {} {} at offset {}", what,
                          unit.result, unit.length, verb, path, unit.offset);
  }
  if (spec_.continue_on_error) return;
  control_.Fail(RunError{message, path, unit.offset, error_number});
}

}  // namespace flashmark
