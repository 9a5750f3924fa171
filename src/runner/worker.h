// Worker: one thread driving one IoEngine over its share of the targets.
//
// Threading: constructed and Prepare()d on the runner's thread, then Run()
// on its own thread; measures() is read concurrently by the sampler.
// Ownership: borrows the files (the runner keeps them open until every
// worker has returned) and the RunControl; with several workers, each
// reopens the files for itself and closes its own descriptors; owns its engine,
// IO units and buffers: one per unit, a write's refreshed per --data, or
// with --shared-buffer one for every unit, filled once; all from one
// IoBufferPool (transparent huge pages unless --mem malloc). Limits (IOs,
// bytes, rate) are this worker's share of the job's.
//
// Submission and completion (fio's defaults unless the tuning says
// otherwise): the worker makes IOs while it has free units and submits
// each one as soon as it is made (--iodepth-batch-submit 1); with N, once
// N are queued, and with 0 everything made in one Commit() (fewer system
// calls, but the device gets the IOs in bursts, which measured up to 12 %
// fewer IOPS at QD32 on a virtio disk). With the queue full it waits for at
// least --iodepth-batch-complete-min completions (1; 0 polls without
// waiting), reaps at most --iodepth-batch-complete-max (the depth) of them,
// and refills at once. The IO that fills the queue is submitted by that
// wait's Reap() (the same moment; io_uring: one system call for both). With
// bursts (--thinktime-iotime, --thinktime), the worker checks the clock before
// each refill: outside a burst (counted from the run's start, the same on every
// worker) it lets the IOs in flight complete and sleeps to the next burst;
// --detect-throttle idles the same way in its schedule's gaps
// (model/throttle_schedule.h).
// Run() names its thread "fm-worker-ID" and, with
// --cpus-allowed, pins it; Prepare() runs before that, on the runner's
// thread, so the buffers are first touched (and an SQPOLL thread without
// --sqpoll-cpu is created) where that thread runs.
// With --profile (model/app_profile.h) the worker issues its ProfileCycle's
// IOs in order instead of the mode's; after an IO that ends a synced step
// it waits for what is in flight, then syncs the files written since the
// last sync; the commit's time (its first write's submission to its sync's
// return) goes into the commit_latency histogram.
// Stopping: when the sampler says so (RunControl), or by itself at the
// run's stop time (RunControl::Window: --time and a grace), checked on the
// cycle clock once per batch, and while it waits for a rate or a burst:
// the run ends on time even where the sampler cannot get a CPU (thousands
// of busy workers on a few cores).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/cycle_clock.h"
#include "engine/io_engine.h"
#include "model/io_log.h"
#include "model/job_spec.h"
#include "runner/io_buffer_pool.h"
#include "runner/io_verifier.h"
#include "runner/run_control.h"
#include "runner/worker_measures.h"
#include "workload/block_size_chooser.h"
#include "workload/data_filler.h"
#include "workload/offset_generator.h"
#include "workload/profile_cycle.h"

namespace flashmark {

struct WorkerPlan {
  int id = 0;
  std::vector<Segment> segments;
  // --profile: this worker's segments of each of the profile's regions.
  std::vector<std::vector<Segment>> regions;
  uint64_t io_limit = 0;     // 0 = none
  uint64_t bytes_limit = 0;  // 0 = none
  double iops_rate = 0;      // 0 = unlimited
  double bytes_rate = 0;     // bytes per second; 0 = unlimited
  uint64_t seed = 0;
};

// One worker's IO buffers, before any worker is made: how many (one per
// IO in flight for an async engine, one for a sync engine or with
// --shared-buffer) and the memory they take once filled (IoBufferPool).
size_t WorkerBufferCount(const JobSpec& spec);
size_t WorkerBufferBytes(const JobSpec& spec);

class Worker {
 public:
  // `clock` times each IO (common/cycle_clock.h); the rest of the worker's
  // times (schedules, bursts) are NowNs().
  Worker(const JobSpec& spec, WorkerPlan plan, std::span<const IoFile> files,
         RunControl& control, const CycleClock& clock);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // --verify: stamp every write and check every read (see io_verifier.h).
  // Call before Prepare().
  void EnableVerify(const IoVerifierSetup& setup) { verify_setup_ = setup; }
  // --trace-latency: every IO completed whole is logged here (not owned).
  void SetIoLog(IoLog* log) { io_log_ = log; }
  // Creates and prepares the engine and the IO buffers.
  Status Prepare();
  // The thread body: waits for the run's start (RunControl::Start), issues
  // IO until the run stops or a limit is reached, then drains what is in
  // flight.
  void Run();

  const WorkerMeasures& measures() const { return *measures_; }
  // The engine's SetupText() (valid after Prepare(); after Run() as it
  // was when Run() released the engine).
  std::string EngineSetupText() const;
  // Which pages hold the IO buffers (filled, so touched, by Prepare()):
  // "IO buffers on 2 MiB pages" or "... 4 KiB pages", with why where huge
  // ones were asked for; "" before Prepare(). Reads /proc/self/smaps.
  std::string BufferText() const;

 private:
  void OpenOwnFiles();
  bool LimitReached() const;
  bool Stopping() const {
    return control_.stopping() ||
           (stop_ticks_ != 0 && clock_.Now() >= stop_ticks_);
  }
  uint64_t NextIntendedNs(uint32_t length);
  void WaitUntil(uint64_t intended_ns);
  void Complete(IoUnit* unit, uint64_t now_ticks);
  void ReapCompletions(int min);
  // Counts batch_ in flight, stamped now, after Commit() (`commit`), or
  // for the Reap() that follows to submit with its wait. False when the
  // engine failed (the run stops).
  bool SubmitBatch(bool commit);
  // --cpus-allowed: pins the calling thread; false when refused.
  bool PinThread();
  Status AllocateBuffers();
  void Drain();
  void SyncWrittenFiles();
  bool BeginVerify(IoUnit* unit);
  void RecordError(const IoUnit& unit, const char* what, int error_number);
  int ShortTransferErrno(const IoUnit& unit) const;

  const JobSpec& spec_;
  WorkerPlan plan_;
  std::span<const IoFile> files_;  // own_files_ when reopened
  std::vector<IoFile> own_files_;
  RunControl& control_;
  const CycleClock clock_;
  std::unique_ptr<WorkerMeasures> measures_;

  std::unique_ptr<IoEngine> engine_;  // released at the end of Run()
  std::string setup_text_;            // the engine's, once released
  bool async_ = false;
  int depth_ = 1;
  int reap_min_ = 1;  // when the queue is full
  int reap_max_ = 1;
  size_t submit_batch_ = 0;  // 0 = all queued at once
  std::vector<IoUnit> units_;
  std::vector<IoUnit*> free_units_;
  std::vector<IoUnit*> batch_;      // queued, not yet committed
  std::vector<IoUnit*> completed_;  // Reap() output
  IoBufferPool buffers_;
  int in_flight_ = 0;
  bool engine_failed_ = false;  // Commit() failed: nothing more to reap

  std::unique_ptr<OffsetGenerator> offsets_;
  BlockSizeChooser block_sizes_;
  DataFiller filler_;
  Random op_random_;
  std::optional<IoVerifierSetup> verify_setup_;
  std::unique_ptr<IoVerifier> verifier_;

  uint64_t issued_ios_ = 0;
  uint64_t issued_bytes_ = 0;
  uint64_t next_intended_ns_ = 0;
  uint64_t stop_ns_ = 0;  // NowNs(); 0: none
  IoLog* io_log_ = nullptr;
  uint64_t stop_ticks_ = 0;  // the same instant on clock_
  uint64_t writes_since_sync_ = 0;
  std::vector<uint8_t> file_dirty_;
  bool sync_pending_ = false;
  // --profile: the cycle of IOs, the IO the engine was too busy to take
  // (issued next), the kind of the pending sync, and the open commit.
  std::unique_ptr<ProfileCycle> cycle_;
  std::optional<ProfileIo> held_io_;
  FsyncMode sync_mode_ = FsyncMode::kFsync;
  bool commit_sync_ = false;         // the pending sync ends the commit
  uint64_t commit_start_ticks_ = 0;  // its first write, on clock_
};

}  // namespace flashmark
