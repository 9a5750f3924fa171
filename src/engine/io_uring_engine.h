// IoUringEngine: asynchronous IO through io_uring (liburing), model: fio's
// io_uring engine. Everything is batched: Queue() only fills a submission
// entry in shared memory; Commit() is one io_uring_enter() for the batch;
// Reap() drains every ready completion without a syscall and enters the
// kernel only to wait.
//
// Contract (see io_engine.h): one worker thread per instance.
// - Prep() creates a ring of `depth` entries and registers the files
//   (IOSQE_FIXED_FILE saves a descriptor lookup per IO; plain descriptors
//   are used when registration is refused). On kernels that have them it
//   sets SINGLE_ISSUER, DEFER_TASKRUN and COOP_TASKRUN; the ring starts
//   disabled and is enabled by the first Commit(), so Prep() may run on
//   another thread than the IO, but all Queue/Commit/Reap calls must come
//   from one thread.
// - Queue(): kQueued, or kBusy when `depth` units are queued or in flight.
// - Commit(): returns how many units the kernel took. On -EAGAIN/-EBUSY
//   it returns 0 and keeps the rest queued; the next Commit() or Reap()
//   retries. A unit the kernel fails completes with result -errno.
// - Reap(min, max): `min` is capped at the units actually submitted.
// - Sync() is a plain fsync()/fdatasync() (nothing is in flight then).
// - The destructor tears the ring down; the kernel cancels or waits for
//   IO in flight, so destroy the engine before freeing the units' buffers.
#pragma once

#include <liburing.h>

#include <cstdint>
#include <span>
#include <vector>

#include "engine/io_engine.h"

namespace flashmark {

class IoUringEngine final : public IoEngine {
 public:
  static constexpr uint32_t kCapabilities =
      kCapAsync | kCapDirectIo | kCapAlignedBuffers;

  IoUringEngine() = default;
  ~IoUringEngine() override;
  IoUringEngine(const IoUringEngine&) = delete;
  IoUringEngine& operator=(const IoUringEngine&) = delete;

  uint32_t capabilities() const override { return kCapabilities; }
  Status Prep(std::span<const IoFile> files, int depth) override;
  QueueResult Queue(IoUnit* unit) override;
  Result<int> Commit() override;
  Result<int> Reap(int min, int max, IoUnit** out) override;
  Status Sync(uint32_t file, FsyncMode mode) override;

  // For tests and the environment report: whether the fast paths are on.
  bool fixed_files() const { return fixed_files_; }
  bool defer_taskrun() const { return defer_taskrun_; }

 private:
  Status Enable();
  // Moves up to `max` ready completions to `out`; no syscall.
  int Drain(IoUnit** out, int max);

  io_uring ring_{};
  bool ring_ready_ = false;  // queue_init succeeded
  bool enabled_ = false;     // ring enabled (R_DISABLED cleared)
  bool fixed_files_ = false;
  bool defer_taskrun_ = false;
  std::vector<IoFile> files_;
  std::vector<int> fds_;
  uint32_t depth_ = 0;
  uint32_t queued_ = 0;       // in the submission queue, not yet taken
  uint32_t in_kernel_ = 0;    // taken by the kernel, not yet reaped
  uint32_t outstanding_ = 0;  // queued_ + in_kernel_
};

}  // namespace flashmark
