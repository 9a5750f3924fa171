// BlockLatencyTracer: --trace-latency on this machine (model/
// latency_tracer.h). It places the targets on their disks (TargetSectors),
// traces those disks' block requests (BlockTrace) and joins the two
// (LatencyJoin), of 1 IO in JobSpec::trace_sample (TraceSample: the
// kernel drops the other IOs' events, the join skips those IOs). A thread
// of its own drains the workers' IO logs and the trace every 50 ms, so
// neither fills in a long interval; Take() drains what is left and hands
// over the interval's split. (At nice 19 that thread fell behind on a
// loaded machine: its logs filled; it keeps the process's priority.)
// Threading: as LatencyTracer; the drains run under one mutex.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "common/result.h"
#include "engine/io_engine.h"
#include "model/job_spec.h"
#include "model/latency_tracer.h"
#include "model/trace_sample.h"
#include "system/block_trace.h"
#include "system/latency_join.h"
#include "system/target_sectors.h"

namespace flashmark {

class BlockLatencyTracer;

// The tracer a run of `spec` on `files` asks for (JobSpec::trace_latency),
// started; null when off, when auto and the targets are not block devices
// opened with --direct, or for an engine whose IO is not block requests
// (null, mmap, NVMe commands). Where `on` asked for it but it cannot be
// had, `note` says why (the run goes on); auto stays quiet.
std::unique_ptr<BlockLatencyTracer> LatencyTracerFor(
    const JobSpec& spec, std::span<const IoFile> files, std::string& note);

class BlockLatencyTracer final : public LatencyTracer {
 public:
  // An error says why this run cannot be traced (a note: the run goes on
  // without the split).
  static Result<std::unique_ptr<BlockLatencyTracer>> Start(
      std::span<const IoFile> files, TraceSample sample);
  ~BlockLatencyTracer() override;

  void Begin(std::span<IoLog* const> logs, const CycleClock& clock) override;
  LatencySplit Take() override;
  void End() override;
  // After End(): what the split lacks: the IOs untraced because the tracer
  // fell behind the run (the kernel overwrote block events before they
  // were drained, a worker's log was full), or every IO because none lay
  // where the sample looks; "" when neither.
  std::string EndNote();

 private:
  BlockLatencyTracer(TargetSectors sectors, std::unique_ptr<BlockTrace> trace,
                     TraceSample sample)
      : sectors_(std::move(sectors)),
        trace_(std::move(trace)),
        sample_(sample) {}
  void DrainLocked();

  TargetSectors sectors_;
  std::unique_ptr<BlockTrace> trace_;
  TraceSample sample_;
  std::mutex mutex_;
  std::unique_ptr<LatencyJoin> join_;  // made by Begin()
  std::vector<IoLog*> logs_;
  std::vector<uint64_t> dropped_seen_;
  uint64_t dropped_counted_ = 0;  // untraced for the logs' drops, sampled
  uint64_t logged_ = 0;           // IOs drained from the logs
  uint64_t followed_ = 0;         // of them, those the sample follows
  std::vector<PlacedIo> placed_;  // reused by each drain
  bool ended_ = false;
  std::condition_variable wake_;
  std::thread reader_;
};

}  // namespace flashmark
