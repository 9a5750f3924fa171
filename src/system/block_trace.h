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
// RWBS and command name (BlockEvent). Threading: Drain() from one thread
// at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "common/cycle_clock.h"
#include "common/result.h"
#include "system/latency_join.h"

struct tep_event;
struct tep_handle;
struct tep_record;
struct tracefs_instance;

namespace flashmark {

class BlockTrace {
 public:
  // An error says why the devices cannot be traced (no tracefs, no
  // permission: tracing needs root or CAP_SYS_ADMIN); its message starts
  // with `user` ("--trace-latency", "capture"). `buffer_kib` is the trace
  // buffer per CPU (0: 4 MiB), set when the process's instance is made
  // (its first Start()).
  static Result<std::unique_ptr<BlockTrace>> Start(
      std::span<const uint32_t> devices, const CycleClock& clock,
      const char* user = "--trace-latency", size_t buffer_kib = 0);
  ~BlockTrace();
  BlockTrace(const BlockTrace&) = delete;
  BlockTrace& operator=(const BlockTrace&) = delete;

  // Hands every event recorded since the last call to `each`, in time
  // order per CPU; returns how many.
  size_t Drain(const std::function<void(const BlockEvent&)>& each);
  // Events the kernel overwrote before they were drained, since Start():
  // the drains fell behind the trace buffer (a few MiB per CPU).
  uint64_t Overwritten() const;

 private:
  BlockTrace() = default;
  static int OnRecord(struct tep_event* event, struct tep_record* record,
                      int cpu, void* context);

 public:  // for the session (block_trace.cpp)
  struct Fields {
    int id = -1;
    int dev = 0, sector = 0, nr_sector = 0;  // offsets into a record
    int pid = -1;                            // common_pid
    int rwbs = -1, rwbs_size = 0, comm = -1, comm_size = 0;  // -1: none
    BlockEvent::Kind kind = BlockEvent::Kind::kQueue;
  };
  struct Session;

 private:
  Session* session_ = nullptr;
  const std::function<void(const BlockEvent&)>* each_ = nullptr;
  size_t drained_ = 0;
  uint64_t overwritten_at_start_ = 0;
};

}  // namespace flashmark
