#include "engine/io_uring_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "engine/sync_engine.h"

namespace flashmark {
namespace {

std::string ErrnoText(int negative_errno) {
  return std::generic_category().message(-negative_errno);
}

// Ring flags from the most to the least capable kernel; the first one the
// kernel accepts wins.
constexpr unsigned kSetupFlags[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
        IORING_SETUP_R_DISABLED | IORING_SETUP_COOP_TASKRUN |
        IORING_SETUP_SUBMIT_ALL,                          // Linux 6.1
    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,  // Linux 5.19
    0,
};

}  // namespace

IoUringEngine::~IoUringEngine() {
  if (ring_ready_) io_uring_queue_exit(&ring_);
}

Status IoUringEngine::Prep(std::span<const IoFile> files, int depth) {
  if (ring_ready_) {
    return RuntimeError("engine io_uring: Prep() called twice",
                        "this is a flashmark bug; please report it");
  }
  if (depth < 1) {
    return RuntimeError(
        fmt::format("engine io_uring: queue depth {} is not a positive number",
                    depth),
        "use --iodepth 1 or more");
  }
  int rc = -EINVAL;
  unsigned flags = 0;
  for (unsigned candidate : kSetupFlags) {
    io_uring_params params{};
    params.flags = candidate;
    rc = io_uring_queue_init_params(static_cast<unsigned>(depth), &ring_,
                                    &params);
    flags = candidate;
    if (rc != -EINVAL) break;
  }
  if (rc < 0) {
    std::string hint = "try --engine libaio";
    if (rc == -EPERM || rc == -ENOSYS) {
      hint =
          "io_uring is unavailable here (sysctl kernel.io_uring_disabled "
          "or a container's seccomp policy); try --engine libaio";
    } else if (rc == -ENOMEM) {
      hint =
          "raise the locked-memory limit (ulimit -l) or use a smaller "
          "--iodepth";
    } else if (rc == -EINVAL) {
      hint = "use a smaller --iodepth (at most 32768), or --engine libaio";
    }
    return RuntimeError(fmt::format("engine io_uring: io_uring_setup(depth {}) "
                                    "failed: {}",
                                    depth, ErrnoText(rc)),
                        std::move(hint));
  }
  ring_ready_ = true;
  enabled_ = (flags & IORING_SETUP_R_DISABLED) == 0;
  defer_taskrun_ = (flags & IORING_SETUP_DEFER_TASKRUN) != 0;

  files_.assign(files.begin(), files.end());
  fds_.clear();
  for (const IoFile& file : files_) fds_.push_back(file.fd);
  // Refused (a bad descriptor, too many files): use plain descriptors, so a
  // bad descriptor fails its IO with -EBADF like the other engines.
  fixed_files_ = !fds_.empty() && io_uring_register_files(
                                      &ring_, fds_.data(),
                                      static_cast<unsigned>(fds_.size())) == 0;
  depth_ = static_cast<uint32_t>(depth);
  queued_ = in_kernel_ = outstanding_ = 0;
  return OkStatus();
}

QueueResult IoUringEngine::Queue(IoUnit* unit) {
  if (outstanding_ >= depth_) return QueueResult::kBusy;
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  if (sqe == nullptr) [[unlikely]]
    return QueueResult::kBusy;
  const int fd = fixed_files_ ? static_cast<int>(unit->file) : fds_[unit->file];
  if (unit->op == IoOp::kRead) {
    io_uring_prep_read(sqe, fd, unit->buffer, unit->length, unit->offset);
  } else {
    io_uring_prep_write(sqe, fd, unit->buffer, unit->length, unit->offset);
  }
  if (fixed_files_) sqe->flags |= IOSQE_FIXED_FILE;
  io_uring_sqe_set_data(sqe, unit);
  ++queued_;
  ++outstanding_;
  return QueueResult::kQueued;
}

Status IoUringEngine::Enable() {
  // liburing 2.3 declares io_uring_enable_rings() but does not export it.
  const int rc = io_uring_register(static_cast<unsigned>(ring_.ring_fd),
                                   IORING_REGISTER_ENABLE_RINGS, nullptr, 0);
  if (rc < 0) {
    return RuntimeError(
        fmt::format("engine io_uring: enabling the ring failed: {}",
                    ErrnoText(rc)),
        "try --engine libaio");
  }
  enabled_ = true;
  return OkStatus();
}

Result<int> IoUringEngine::Commit() {
  if (queued_ == 0) return 0;
  if (!enabled_) [[unlikely]] {
    if (Status status = Enable(); !status.ok()) return status.error();
  }
  int rc;
  do {
    rc = io_uring_submit(&ring_);
  } while (rc == -EINTR);
  if (rc >= 0) {
    // Failed submissions also count: their error arrives as a completion.
    const auto taken = std::min(static_cast<uint32_t>(rc), queued_);
    queued_ -= taken;
    in_kernel_ += taken;
    return static_cast<int>(taken);
  }
  // Short of resources, or completions must be reaped first: the entries
  // stay in the submission queue and the next Commit() or Reap() retries.
  if (rc == -EAGAIN || rc == -EBUSY) return 0;
  return RuntimeError(
      fmt::format("engine io_uring: io_uring_enter (submit) failed: {}",
                  ErrnoText(rc)),
      "try --engine libaio");
}

int IoUringEngine::Drain(IoUnit** out, int max) {
  int n = 0;
  unsigned head;
  io_uring_cqe* cqe;
  io_uring_for_each_cqe(&ring_, head, cqe) {
    if (n == max) break;
    auto* unit = static_cast<IoUnit*>(io_uring_cqe_get_data(cqe));
    unit->result = cqe->res;
    out[n++] = unit;
  }
  io_uring_cq_advance(&ring_, static_cast<unsigned>(n));
  in_kernel_ -= static_cast<uint32_t>(n);
  outstanding_ -= static_cast<uint32_t>(n);
  return n;
}

Result<int> IoUringEngine::Reap(int min, int max, IoUnit** out) {
  if (queued_ > 0) {
    if (Result<int> taken = Commit(); !taken.ok()) return taken.error();
  }
  if (max <= 0 || in_kernel_ == 0) return 0;
  int got = Drain(out, max);
  // With DEFER_TASKRUN completions are posted only when we enter the
  // kernel, so a non-blocking reap that found nothing asks for them.
  if (got == 0 && min <= 0 && defer_taskrun_) {
    io_uring_get_events(&ring_);
    return Drain(out, max);
  }
  const int target = std::min(min, max);
  while (got < target && in_kernel_ > 0) {
    const auto wait_nr =
        std::min(static_cast<uint32_t>(target - got), in_kernel_);
    io_uring_cqe* cqe;
    const int rc = io_uring_wait_cqe_nr(&ring_, &cqe, wait_nr);
    if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -ETIME) {
      if (got > 0) break;
      return RuntimeError(
          fmt::format("engine io_uring: waiting for completions failed: {}",
                      ErrnoText(rc)),
          "try --engine libaio");
    }
    got += Drain(out + got, max - got);
  }
  return got;
}

Status IoUringEngine::Sync(uint32_t file, FsyncMode mode) {
  if (file >= files_.size()) {
    return BadFileIndex("io_uring", file, files_.size());
  }
  return SyncFile(files_[file], mode);
}

}  // namespace flashmark
