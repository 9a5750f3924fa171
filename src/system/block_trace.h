// BlockTrace: the block layer's request events (block_bio_queue,
// block_rq_issue, block_rq_complete) of some devices, recorded by the
// kernel into a tracefs instance of this process's own
// ("flashmark-PID": other users of tracing are left alone; made by the
// first traced run and kept for the next ones of the process, removed at
// exit) and read in binary through libtracefs. The instance's clock is the one
// the workers stamp with: the time-stamp counter (x86-tsc) when CycleClock uses
// it, else CLOCK_MONOTONIC (mono), so an event's time is a CycleClock tick.
// tracefs is mounted where it is not (libtracefs does). The events are
// disabled when the BlockTrace goes, and an instance left by a flashmark
// that died is removed on the next first Start(). One BlockTrace at a time
// per process. Each event carries its device, sectors, time, process,
// RWBS and command name (BlockEvent). The kernel drops the events of
// other devices before they reach the buffer (a filter on each event);
// the buffers are read in binary, straight from each CPU's
// trace_pipe_raw (BlockEventReader). Threading: Drain() from one thread
// at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "common/cycle_clock.h"
#include "common/result.h"
#include "system/latency_join.h"

namespace flashmark {

class BlockTrace {
 public:
  // An error says why the devices cannot be traced (no tracefs, no
  // permission: tracing needs root or CAP_SYS_ADMIN); its message starts
  // with `user` ("--trace-latency", "capture"). `buffer_kib` is the trace
  // buffer per CPU (0: 64 MiB over the CPUs, 4 to 16 MiB each), set when the
  // process's instance is made (its first Start()). With a `sector_mask`
  // the kernel keeps only the events whose sector has none of its bits
  // (model/trace_sample.h).
  static Result<std::unique_ptr<BlockTrace>> Start(
      std::span<const uint32_t> devices, const CycleClock& clock,
      const char* user = "--trace-latency", size_t buffer_kib = 0,
      uint64_t sector_mask = 0);
  ~BlockTrace();
  BlockTrace(const BlockTrace&) = delete;
  BlockTrace& operator=(const BlockTrace&) = delete;

  // The events recorded since the last call, up to this call's start
  // (later ones wait for the next call, so that a request's events on two
  // CPUs come in the same call or in order), in time order; valid until
  // the next call.
  std::span<const BlockEvent> Drain();
  // Events the kernel overwrote before they were drained, since Start():
  // the drains fell behind the trace buffer (a few MiB per CPU).
  uint64_t Overwritten() const;

 private:
  explicit BlockTrace(const CycleClock& clock) : clock_(clock) {}

 public:  // for the session (block_trace.cpp)
  struct Session;

 private:
  Session* session_ = nullptr;
  CycleClock clock_;
  std::vector<std::vector<BlockEvent>> pending_;  // per CPU: read, not yet due
  std::vector<BlockEvent> drained_;               // the last Drain()'s
  std::vector<BlockEvent> merged_;                // Drain()'s, reused
  uint64_t overwritten_at_start_ = 0;
};

}  // namespace flashmark
