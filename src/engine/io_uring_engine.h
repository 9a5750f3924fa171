// IoUringEngine: asynchronous IO through io_uring (liburing), model: fio's
// io_uring engine. Everything is batched: Queue() only fills a submission
// entry in shared memory; Commit() is one io_uring_enter() for the batch
// (none with --sqpoll while the kernel's poll thread is awake); Reap()
// drains every ready completion without a syscall and enters the kernel
// only to wait (or, with DEFER_TASKRUN or --hipri, to collect or poll).
//
// Contract (see io_engine.h): one worker thread per instance.
// - Prep() creates a ring of `depth` entries and registers the files
//   (IOSQE_FIXED_FILE saves a descriptor lookup per IO; plain descriptors
//   are used when registration is refused). On kernels that have them it
//   sets SINGLE_ISSUER, DEFER_TASKRUN and COOP_TASKRUN; the ring starts
//   disabled and is enabled by the first Commit(), which also registers
//   the ring's descriptor (it is registered per thread), so Prep() may run
//   on another thread than the IO, but all Queue/Commit/Reap calls must
//   come from one thread.
// - Buffers: EngineSetup::buffers are registered with the ring whenever
//   the kernel takes them (IoUnit::buffer_index names a unit's), so that no
//   IO pins its pages again (fio's t/io_uring does the same; fio's engine
//   only with --fixedbufs). Refused (the locked-memory limit, more than
//   the kernel's 16384), the IO uses them unregistered and SetupText() says
//   why; fixed_buffers (--fixedbufs) makes the refusal an error instead.
//   NVMe passthrough never registers them. sqpoll starts a kernel submission
//   thread (pinned with sqpoll_cpu); hipri sets IOPOLL, and Prep() refuses a
//   file that is not O_DIRECT or whose device has no poll queues (naming the
//   sysfs setting). What was asked for and refused is an error, never a
//   silent fallback; SetupText() says what the ring really has.
// - Queue(): kQueued, or kBusy when `depth` units are queued or in flight.
// - Commit(): returns how many units the kernel took. On -EAGAIN/-EBUSY
//   it returns 0 and keeps the rest queued; the next Commit() or Reap()
//   retries. A unit the kernel fails completes with result -errno.
// - Reap(min, max): `min` is capped at the units actually submitted.
// - Sync() is a plain fsync()/fdatasync() (nothing is in flight then).
// - NVMe passthrough (the io_uring_cmd engine, Kind::kNvmeCommands): every
//   file must be an NVMe generic character device (/dev/ngXnY); each unit
//   becomes an NVMe Read or Write command (IORING_OP_URING_CMD on a ring of
//   128-byte entries), in whole LBAs; a unit that is not completes in
//   Queue() with -EINVAL, and an NVMe error status completes with -EIO.
// - The destructor tears the ring down; the kernel cancels or waits for
//   IO in flight, so destroy the engine before freeing the units' buffers.
#pragma once

#include <liburing.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/io_engine.h"

namespace flashmark {

class IoUringEngine final : public IoEngine {
 public:
  static constexpr uint32_t kCapabilities =
      kCapAsync | kCapDirectIo | kCapAlignedBuffers | kCapFixedBuffers |
      kCapSqPoll | kCapPolledIo;
  static constexpr uint32_t kCommandCapabilities =
      kCapAsync | kCapAlignedBuffers | kCapSqPoll | kCapNvmeCommands;

  enum class Kind { kFiles, kNvmeCommands };
  explicit IoUringEngine(Kind kind = Kind::kFiles) : kind_(kind) {}
  ~IoUringEngine() override;
  IoUringEngine(const IoUringEngine&) = delete;
  IoUringEngine& operator=(const IoUringEngine&) = delete;

  uint32_t capabilities() const override {
    return kind_ == Kind::kFiles ? kCapabilities : kCommandCapabilities;
  }
  Status Prep(const EngineSetup& setup) override;
  QueueResult Queue(IoUnit* unit) override;
  Result<int> Commit() override;
  Result<int> Reap(int min, int max, IoUnit** out) override;
  Status Sync(uint32_t file, FsyncMode mode) override;
  std::string SetupText() const override;

  // For tests and the environment report: whether the fast paths are on.
  bool fixed_files() const { return fixed_files_; }
  bool fixed_buffers() const { return fixed_buffers_; }
  bool defer_taskrun() const { return defer_taskrun_; }
  bool ring_fd_registered() const { return ring_fd_registered_; }
  unsigned setup_flags() const { return setup_flags_; }

 private:
  Status SetUpRing(const EngineSetup& setup);
  Status RegisterBuffers(std::span<const IoBuffer> buffers);
  // Kind::kNvmeCommands: each file's namespace id and LBA size.
  Status IdentifyNamespaces();
  // The first submission, on the IO thread: enables the ring, registers
  // its descriptor.
  Status Start();
  // Submits what is queued, waiting for `wait_nr` completions in the same
  // system call (0: none); how many entries the kernel took.
  Result<int> Submit(unsigned wait_nr);
  // Moves up to `max` ready completions to `out`; no syscall.
  int Drain(IoUnit** out, int max);

  Kind kind_;
  io_uring ring_{};
  bool ring_ready_ = false;  // queue_init succeeded
  bool started_ = false;     // Start() ran
  bool fixed_files_ = false;
  bool fixed_buffers_ = false;
  std::string buffers_refused_;  // why the buffers are not registered
  bool defer_taskrun_ = false;
  bool ring_fd_registered_ = false;
  // Completions appear only when the thread enters the kernel
  // (DEFER_TASKRUN posts them then; IOPOLL polls the device then).
  bool reap_enters_ = false;
  unsigned setup_flags_ = 0;
  int sqpoll_cpu_ = -1;
  std::vector<IoFile> files_;
  std::vector<int> fds_;
  std::vector<uint32_t> nsids_;      // Kind::kNvmeCommands, per file
  std::vector<uint32_t> lba_bytes_;  // Kind::kNvmeCommands, per file
  uint32_t depth_ = 0;
  uint32_t queued_ = 0;       // in the submission queue, not yet taken
  uint32_t in_kernel_ = 0;    // taken by the kernel, not yet reaped
  uint32_t outstanding_ = 0;  // queued_ + in_kernel_
};

}  // namespace flashmark
