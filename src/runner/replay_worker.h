// ReplayWorker: the one thread that replays a block IO trace
// (model/block_io_trace.h) through one IoEngine, IO by IO in the trace's
// order, onto the run's files (trace device i onto the file or file set
// of ReplayPlan::placements[i], workload/trace_placement.h). It writes the same
// WorkerMeasures a Worker does, so the run's Sampler, SamplingLoop and output
// thread record a replay's intervals exactly as they record a run's
// (runner/replay_runner.h).
//
// Timing (workload/replay_timing.h): original and scaled:X queue every
// IO whose intended time has come and submit them together, in one
// system call (engine Commit()), as soon as the next IO is not yet due;
// then wait for that one (sleeping, then spinning the last 100 us,
// reaping completions without blocking meanwhile), the thread running
// ahead of other work (runner/sampler_priority.h: SCHED_FIFO 1 where
// allowed, else the lowest nice value). An fio job at --rate_iops issues
// in bursts: one system call per IO made the last of a burst of 32 wait
// for 31 submissions. afap queues each IO as soon as fewer than its
// recorded depth (the trace's IOs in flight at its issue,
// analysis/replay_fidelity.h; without completion times in the trace,
// ReplayPlan::depth) are in flight or queued, and submits what is queued
// before it waits for a completion. Either way at most ReplayPlan::depth
// IOs are in flight (IO units). Reads and writes go
// through the engine; a flush is an fdatasync() of the IO's file (a
// syncfs() of a file set's file system) on a thread of its own
// (runner/replay_flusher.h), the IOs after it not waiting for it, as the
// block layer's do not; a discard is BLKDISCARD on a block device,
// fallocate(PUNCH_HOLE | KEEP_SIZE) on a file, synchronous, issued in
// order without waiting for the IOs in flight (after submitting what is
// queued). Each IO's intended and actual submission time (ns since the
// start, CLOCK_MONOTONIC: when the system call that submitted it was
// made) and the depth achieved go into a ReplayFidelityAccumulator
// (analysis/replay_fidelity_accumulator.h), whose memory does not grow
// with the trace; its series steps by the spec's interval.
// Written data: the buffers are filled once per --data (random unless
// zero), not per IO.
//
// Measured (bench/replay-vs-fio.py, an fio iolog at 20k IOPS onto a file
// on this 2-core VM's virtio disk, load average 8): submitting in batches
// took the p99 issue error from 27 ms to 7.6 ms and p50 from 13 to 4.6
// us; the rest is the kernel's: a submission system call blocks for up to
// 13 ms at times, and the units run out while completions lag. SCHED_FIFO
// 1 did better than nice -20 and than no change (p99 10, 13, 22 ms).
// Times are CLOCK_MONOTONIC (clock.h), the clock the sleeps use: a vDSO
// read here (65 ns, no system call; RDTSC 25 ns), not worth a second clock.
//
// The trace is never whole in memory: Prepare() starts reading its IOs
// ahead (two chunks, runner/trace_prefetcher.h) and waits for the first
// chunk (read after the start, 60,000 IOs made a timed replay's first IOs
// 25 ms late), Run() takes them one by one and counts each IO's recorded
// depth as it goes.
//
// Threading: constructed and Prepare()d on the runner's thread, Run() on
// its own; measures() is read concurrently by the sampler; fidelity() and
// issued() after Run() has returned. Borrows the plan (and its trace
// source), the files and the RunControl; owns its engine, buffers and
// prefetcher.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/replay_fidelity_accumulator.h"
#include "common/cycle_clock.h"
#include "engine/io_engine.h"
#include "model/block_io_trace.h"
#include "model/job_spec.h"
#include "model/replay_outcome.h"
#include "model/trace_io_stream.h"
#include "runner/io_buffer_pool.h"
#include "runner/replay_flusher.h"
#include "runner/run_control.h"
#include "runner/spin_budget.h"
#include "runner/trace_prefetcher.h"
#include "runner/worker_measures.h"
#include "workload/replay_timing.h"
#include "workload/trace_offset_map.h"
#include "workload/trace_placement.h"

namespace flashmark {

struct ReplayPlan {
  // The trace's IOs, read once, in trace order, ahead of the replay on a
  // thread of their own (runner/trace_prefetcher.h). Not owned.
  TraceIoSource* ios = nullptr;
  uint64_t io_count = 0;
  uint32_t longest_io = 4096;  // the longest read or write (at least 4096)
  ReplayTiming timing;
  TraceOffsetMap map = TraceOffsetMap::kNone;
  // Per trace device: its files and how its offsets land on them.
  std::vector<TracePlacement> placements;
  // The most IOs in flight (IO units); afap's cap where the trace has no
  // completion times.
  int depth = 1;
  // The trace has completion times: each IO's recorded depth is counted
  // as it is read (RecordedDepthCounter) and caps afap.
  bool recorded_depths = false;
  double mean_interarrival_ns = 0;
};

class ReplayWorker {
 public:
  ReplayWorker(const JobSpec& spec, const ReplayPlan& plan,
               std::span<const IoFile> files, RunControl& control,
               const CycleClock& clock);
  ~ReplayWorker();
  ReplayWorker(const ReplayWorker&) = delete;
  ReplayWorker& operator=(const ReplayWorker&) = delete;

  Status Prepare();
  void Run();

  const WorkerMeasures& measures() const { return *measures_; }
  ReplayFidelity fidelity() const { return fidelity_.Result(); }
  const ReplayOpCount& issued() const { return issued_; }
  int depth() const { return depth_; }
  std::string EngineSetupText() const;

 private:
  // A queued IO, not yet submitted.
  struct PendingIo {
    IoUnit* unit;
    int64_t intended_ns;
    uint32_t recorded_depth;
  };

  void WaitUntilNs(uint64_t deadline_ns);
  bool SubmitPending(uint64_t start_ns);
  void ReapSome(int min);
  void DrainAll();
  void CompleteUnit(IoUnit* unit, uint64_t now_ticks);
  bool Discard(uint32_t file, uint64_t offset, uint32_t length);
  void Fail(const std::string& message, uint32_t file, uint64_t offset,
            int error_number);

  const JobSpec& spec_;
  const ReplayPlan& plan_;
  std::span<const IoFile> files_;
  RunControl& control_;
  const CycleClock clock_;
  std::unique_ptr<WorkerMeasures> measures_;
  std::unique_ptr<IoEngine> engine_;
  std::unique_ptr<ReplayFlusher> flusher_;
  std::string setup_text_;
  IoBufferPool buffers_;
  std::vector<IoUnit> units_;
  std::vector<IoUnit*> free_units_;
  std::vector<IoUnit*> completed_;
  std::vector<uint8_t> block_device_;  // per file
  int depth_ = 1;
  bool async_ = false;
  int in_flight_ = 0;
  SpinBudget spin_budget_;  // WaitUntilNs()'s
  bool engine_failed_ = false;
  std::vector<PendingIo> pending_;
  ReplayFidelityAccumulator fidelity_;
  ReplayOpCount issued_;
  std::unique_ptr<TracePrefetcher> prefetch_;
  const TracedIo* first_io_ = nullptr;  // the prefetcher's first, or nullptr
};

}  // namespace flashmark
