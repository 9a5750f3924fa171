// LibaioEngine: Linux native AIO through libaio (model: fio's libaio).
//
// Contract (see io_engine.h): one worker thread per instance.
// - Prep() calls io_setup(depth) and allocates every iocb and event slot;
//   the hot path allocates nothing.
// - Queue() prepares an iocb (kQueued), or kBusy when `depth` units are
//   queued or in flight. Commit() submits the batch with io_submit(),
//   resubmitting after a partial submit; on -EAGAIN the rest stays queued
//   and is retried by the next Commit() or Reap(). A unit the kernel
//   rejects at submission (e.g. -EBADF) completes with that error and is
//   returned by the next Reap(); it does not fail the engine.
// - Reap(min, max): completions already posted are read from the AIO
//   ring the kernel maps into the process (as fio's userspace_reap does),
//   without a system call; io_getevents() only waits for the rest of
//   `min` (or reads them all where the ring's layout is not the known one).
//   `min` is capped at the units actually in flight, so it never waits for
//   something that cannot complete.
// - Asynchronous only with O_DIRECT: on buffered files the kernel runs
//   io_submit() synchronously. Sync() is a plain fsync()/fdatasync().
// - The destructor calls io_destroy(), which waits for IO still in flight:
//   destroy the engine before freeing the units' buffers.
#pragma once

#include <libaio.h>

#include <cstdint>
#include <span>
#include <vector>

#include "engine/io_engine.h"

namespace flashmark {

class LibaioEngine final : public IoEngine {
 public:
  static constexpr uint32_t kCapabilities =
      kCapAsync | kCapDirectIo | kCapAlignedBuffers;

  LibaioEngine() = default;
  ~LibaioEngine() override;
  LibaioEngine(const LibaioEngine&) = delete;
  LibaioEngine& operator=(const LibaioEngine&) = delete;

  uint32_t capabilities() const override { return kCapabilities; }
  Status Prep(const EngineSetup& setup) override;
  QueueResult Queue(IoUnit* unit) override;
  Result<int> Commit() override;
  Result<int> Reap(int min, int max, IoUnit** out) override;
  Status Sync(uint32_t file, FsyncMode mode) override;

  // Whether Reap() reads posted completions from the ring (for tests).
  bool reads_ring() const { return ring_readable_; }

 private:
  // Submits pending iocbs; returns how many the kernel took.
  int SubmitPending();
  void Release(iocb* cb) { free_[free_count_++] = cb; }
  // Moves up to `max` posted completions from the ring to `events`; no
  // system call. 0 when the ring cannot be read from here.
  int ReadRing(io_event* events, int max);

  io_context_t context_ = nullptr;
  std::vector<IoFile> files_;
  std::vector<int> fds_;
  std::vector<iocb> iocbs_;      // depth slots
  std::vector<iocb*> free_;      // stack of unused slots
  std::vector<iocb*> pending_;   // queued, not yet submitted (FIFO)
  std::vector<IoUnit*> failed_;  // rejected at submission, not yet reaped
  std::vector<io_event> events_;
  uint32_t depth_ = 0;
  uint32_t free_count_ = 0;
  uint32_t pending_count_ = 0;
  uint32_t failed_count_ = 0;
  uint32_t in_kernel_ = 0;      // submitted, not yet reaped
  uint32_t outstanding_ = 0;    // taken by Queue(), not yet reaped
  bool ring_readable_ = false;  // the context's ring has the known layout
};

}  // namespace flashmark
