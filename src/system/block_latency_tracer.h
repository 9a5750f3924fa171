// BlockLatencyTracer: --trace-latency on this machine (model/
// latency_tracer.h). It places the targets on their disks (TargetSectors),
// traces those disks' block requests (BlockTrace) and joins the two
// (LatencyJoin). A thread of its own drains the workers' IO logs and the
// trace every 50 ms, so neither fills in a long interval; Take() drains
// what is left and hands over the interval's split. (At nice 19 that
// thread fell behind on a loaded machine: its logs filled; it keeps the
// process's priority.)
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
      std::span<const IoFile> files);
  ~BlockLatencyTracer() override;

  void Begin(std::span<IoLog* const> logs, const CycleClock& clock) override;
  LatencySplit Take() override;
  void End() override;
  // After End(): what made IOs untraced when the tracer fell behind the
  // run (the kernel overwrote block events before they were drained, a
  // worker's log was full); "" when it kept up.
  std::string FellBehindNote();

 private:
  BlockLatencyTracer(TargetSectors sectors, std::unique_ptr<BlockTrace> trace)
      : sectors_(std::move(sectors)), trace_(std::move(trace)) {}
  void DrainLocked();

  TargetSectors sectors_;
  std::unique_ptr<BlockTrace> trace_;
  std::mutex mutex_;
  std::unique_ptr<LatencyJoin> join_;  // made by Begin()
  std::vector<IoLog*> logs_;
  std::vector<uint64_t> dropped_seen_;
  std::vector<PlacedIo> placed_;  // reused by each drain
  bool ended_ = false;
  std::condition_variable wake_;
  std::thread reader_;
};

}  // namespace flashmark
