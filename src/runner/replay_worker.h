// ReplayWorker: the one thread that replays a block IO trace
// (model/block_io_trace.h) through one IoEngine, IO by IO in the trace's
// order, onto the run's files (trace device i onto file
// ReplayPlan::device_file[i]). It writes the same WorkerMeasures a Worker
// does, so the run's Sampler, SamplingLoop and output thread record a
// replay's intervals exactly as they record a run's (runner/replay_runner.h).
//
// Timing (workload/replay_timing.h): original and scaled:X wait for each
// IO's intended time (sleeping, then spinning the last 100 us, reaping
// completions meanwhile) and submit it alone at once, the thread running
// ahead of other work meanwhile (runner/sampler_priority.h: SCHED_FIFO 1
// where allowed, else the lowest nice value); afap submits each IO
// as soon as fewer than its recorded depth (the trace's IOs in flight at
// its issue, analysis/replay_fidelity.h; without completion times in the
// trace, ReplayPlan::depth) are in flight. Either way at most
// ReplayPlan::depth IOs are in flight (IO units). Reads and writes go
// through the engine; a flush is an fdatasync() of the IO's file on a
// thread of its own (runner/replay_flusher.h), the IOs after it not
// waiting for it, as the block layer's do not; a discard is BLKDISCARD on a
// block device, fallocate(PUNCH_HOLE | KEEP_SIZE) on a file, synchronous,
// issued in order without waiting for the IOs in flight. Each IO's intended and
// actual submission time (ns since the start, CLOCK_MONOTONIC) and the
// depth achieved are kept (24 bytes per IO) for the fidelity figures.
// Written data: the buffers are filled once per --data (random unless
// zero), not per IO.
//
// The trace is never whole in memory: Prepare() starts reading its IOs
// ahead (two chunks, runner/trace_prefetcher.h), Run() takes them one by
// one and counts each IO's recorded depth as it goes.
//
// Threading: constructed and Prepare()d on the runner's thread, Run() on
// its own; measures() is read concurrently by the sampler; records() and
// issued() after Run() has returned. Borrows the plan (and its trace
// source), the files and the RunControl; owns its engine, buffers and
// prefetcher.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/replay_fidelity.h"
#include "common/cycle_clock.h"
#include "engine/io_engine.h"
#include "model/block_io_trace.h"
#include "model/job_spec.h"
#include "model/replay_outcome.h"
#include "model/trace_io_stream.h"
#include "runner/io_buffer_pool.h"
#include "runner/replay_flusher.h"
#include "runner/run_control.h"
#include "runner/trace_prefetcher.h"
#include "runner/worker_measures.h"
#include "workload/replay_timing.h"
#include "workload/trace_offset_map.h"

namespace flashmark {

struct ReplayPlan {
  // The trace's IOs, read once, in trace order, ahead of the replay on a
  // thread of their own (runner/trace_prefetcher.h). Not owned.
  TraceIoSource* ios = nullptr;
  uint64_t io_count = 0;
  uint32_t longest_io = 4096;  // the longest read or write (at least 4096)
  ReplayTiming timing;
  TraceOffsetMap map = TraceOffsetMap::kNone;
  std::vector<uint32_t> device_file;    // trace device -> file index
  std::vector<uint64_t> device_extent;  // per trace device (see the map)
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
  const std::vector<ReplayIoRecord>& records() const { return records_; }
  const ReplayOpCount& issued() const { return issued_; }
  int depth() const { return depth_; }
  std::string EngineSetupText() const;

 private:
  void WaitUntilNs(uint64_t deadline_ns);
  void ReapSome(int min);
  void DrainAll();
  void CompleteUnit(IoUnit* unit, uint64_t now_ticks);
  bool Flush(uint32_t file);
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
  int in_flight_ = 0;
  bool engine_failed_ = false;
  std::vector<ReplayIoRecord> records_;
  ReplayOpCount issued_;
  std::unique_ptr<TracePrefetcher> prefetch_;
};

}  // namespace flashmark
