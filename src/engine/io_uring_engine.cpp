#include "engine/io_uring_engine.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>

#include "engine/nvme_generic.h"
#include "engine/polled_io_check.h"
#include "engine/sync_engine.h"

namespace flashmark {
namespace {

std::string ErrnoText(int negative_errno) {
  return std::generic_category().message(-negative_errno);
}

// Ring flags from the most to the least capable kernel; the first one the
// kernel accepts wins. SQPOLL rules out the task-run flags (the kernel's
// thread runs the completions) and DEFER_TASKRUN.
constexpr unsigned kSetupFlags[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
        IORING_SETUP_R_DISABLED | IORING_SETUP_COOP_TASKRUN |
        IORING_SETUP_SUBMIT_ALL,                          // Linux 6.1
    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,  // Linux 5.19
    0,
};
constexpr unsigned kSqPollFlags[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_R_DISABLED |
        IORING_SETUP_SUBMIT_ALL,  // Linux 6.0
    IORING_SETUP_SUBMIT_ALL,      // Linux 5.18
    0,
};

struct FlagName {
  unsigned flag;
  const char* name;
};
constexpr FlagName kFlagNames[] = {
    {IORING_SETUP_IOPOLL, "IOPOLL"},
    {IORING_SETUP_SQPOLL, "SQPOLL"},
    {IORING_SETUP_SQ_AFF, "SQ_AFF"},
    {IORING_SETUP_SUBMIT_ALL, "SUBMIT_ALL"},
    {IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN"},
    {IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER"},
    {IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN"},
    {IORING_SETUP_SQE128, "SQE128"},
    {IORING_SETUP_CQE32, "CQE32"},
};

}  // namespace

IoUringEngine::~IoUringEngine() {
  if (ring_ready_) io_uring_queue_exit(&ring_);
}

Status IoUringEngine::Prep(const EngineSetup& setup) {
  if (ring_ready_) {
    return RuntimeError("engine io_uring: Prep() called twice",
                        "this is a flashmark bug; please report it");
  }
  if (setup.depth < 1) {
    return RuntimeError(
        fmt::format("engine io_uring: queue depth {} is not a positive number",
                    setup.depth),
        "use --iodepth 1 or more");
  }
  if (Status tuned =
          CheckTuning(kind_ == Kind::kFiles ? "io_uring" : "io_uring_cmd",
                      capabilities(), setup.tuning);
      !tuned.ok()) {
    return tuned;
  }
  if (setup.tuning.hipri) {
    if (Status polls = CheckPolledIo(setup.files); !polls.ok()) return polls;
  }
  files_.assign(setup.files.begin(), setup.files.end());
  if (kind_ == Kind::kNvmeCommands) {
    if (Status identified = IdentifyNamespaces(); !identified.ok()) {
      return identified;
    }
  }
  if (Status ring = SetUpRing(setup); !ring.ok()) return ring;

  fds_.clear();
  for (const IoFile& file : files_) fds_.push_back(file.fd);
  // Refused (a bad descriptor, too many files): use plain descriptors, so a
  // bad descriptor fails its IO with -EBADF like the other engines.
  fixed_files_ = !fds_.empty() && io_uring_register_files(
                                      &ring_, fds_.data(),
                                      static_cast<unsigned>(fds_.size())) == 0;
  fixed_buffers_ = false;
  buffers_refused_.clear();
  if (kind_ == Kind::kFiles) {
    if (Status registered = RegisterBuffers(setup.buffers); !registered.ok()) {
      const auto& refused = registered.error();
      if (setup.tuning.fixed_buffers) {
        return RuntimeError("--fixedbufs: " + refused.message, refused.hint);
      }
      buffers_refused_ = refused.message;
    }
  }
  depth_ = static_cast<uint32_t>(setup.depth);
  queued_ = in_kernel_ = outstanding_ = 0;
  return OkStatus();
}

Status IoUringEngine::SetUpRing(const EngineSetup& setup) {
  const EngineTuning& tuning = setup.tuning;
  unsigned required = 0;
  if (tuning.hipri) required |= IORING_SETUP_IOPOLL;
  if (tuning.sqpoll) required |= IORING_SETUP_SQPOLL;
  if (tuning.sqpoll && tuning.sqpoll_cpu >= 0) required |= IORING_SETUP_SQ_AFF;
  // An NVMe command (72 bytes) runs from byte 48 of the entry, past 64:
  // 128-byte entries, and 32-byte completions for the command's result.
  if (kind_ == Kind::kNvmeCommands) {
    required |= IORING_SETUP_SQE128 | IORING_SETUP_CQE32;
  }
  const std::span<const unsigned> candidates =
      tuning.sqpoll ? std::span<const unsigned>(kSqPollFlags)
                    : std::span<const unsigned>(kSetupFlags);
  int rc = -EINVAL;
  unsigned flags = 0;
  for (unsigned candidate : candidates) {
    io_uring_params params{};
    params.flags = candidate | required;
    if (tuning.sqpoll_cpu >= 0) {
      params.sq_thread_cpu = static_cast<unsigned>(tuning.sqpoll_cpu);
    }
    rc = io_uring_queue_init_params(static_cast<unsigned>(setup.depth), &ring_,
                                    &params);
    flags = params.flags;
    if (rc != -EINVAL) break;
  }
  if (rc < 0) {
    std::string hint = "try --engine libaio";
    if (rc == -EPERM || rc == -ENOSYS) {
      hint =
          "io_uring is unavailable here (sysctl kernel.io_uring_disabled "
          "or a container's seccomp policy); try --engine libaio";
      if (tuning.sqpoll) {
        hint += "; before Linux 5.11 --sqpoll needs root (CAP_SYS_ADMIN)";
      }
    } else if (rc == -ENOMEM) {
      hint =
          "raise the locked-memory limit (ulimit -l) or use a smaller "
          "--iodepth";
    } else if (rc == -EINVAL && kind_ == Kind::kNvmeCommands) {
      hint =
          "NVMe passthrough needs Linux 5.19 or later (128-byte ring "
          "entries); use --engine io_uring on the block device";
    } else if (rc == -EINVAL && required != 0) {
      hint = fmt::format(
          "this kernel refuses {}{}; drop the option, or use a smaller "
          "--iodepth",
          tuning.hipri ? "--hipri (IOPOLL) " : "",
          tuning.sqpoll_cpu >= 0 ? "--sqpoll-cpu (a CPU outside the online "
                                   "ones?)"
          : tuning.sqpoll        ? "--sqpoll"
                                 : "");
    } else if (rc == -EINVAL) {
      hint = "use a smaller --iodepth (at most 32768), or --engine libaio";
    }
    return RuntimeError(fmt::format("engine io_uring: io_uring_setup(depth {}) "
                                    "failed: {}",
                                    setup.depth, ErrnoText(rc)),
                        std::move(hint));
  }
  ring_ready_ = true;
  setup_flags_ = flags;
  started_ = false;
  defer_taskrun_ = (flags & IORING_SETUP_DEFER_TASKRUN) != 0;
  // COOP_TASKRUN (and DEFER_TASKRUN) post completions when the thread
  // enters the kernel, IOPOLL finds them only by polling there.
  reap_enters_ =
      (flags & (IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN |
                IORING_SETUP_IOPOLL)) != 0;
  sqpoll_cpu_ = tuning.sqpoll ? tuning.sqpoll_cpu : -1;
  return OkStatus();
}

Status IoUringEngine::IdentifyNamespaces() {
  nsids_.clear();
  lba_bytes_.clear();
  for (const IoFile& file : files_) {
    const std::string name = file.path.empty() ? "the target" : file.path;
    struct stat st {};
    std::optional<NvmeGeneric> generic;
    if (fstat(file.fd, &st) == 0 && S_ISCHR(st.st_mode)) {
      generic = DescribeNvmeGeneric(st.st_rdev);
    }
    if (!generic) {
      return UsageError(
          fmt::format("engine io_uring_cmd: {} is not an NVMe generic "
                      "character device",
                      name),
          std::string(kNvmeGenericHint));
    }
    const int nsid = ioctl(file.fd, NVME_IOCTL_ID);
    if (nsid > 0 && static_cast<uint32_t>(nsid) != generic->nsid) {
      return UsageError(
          fmt::format("engine io_uring_cmd: {} is namespace {}, but /dev/{} "
                      "is namespace {}",
                      name, nsid, generic->block_name, generic->nsid),
          "this engine cannot tell which block device is that namespace; "
          "use --engine io_uring on it");
    }
    if (nsid <= 0) {
      return RuntimeError(
          fmt::format("engine io_uring_cmd: {}: NVME_IOCTL_ID failed: {}", name,
                      std::strerror(errno)),
          "use --engine io_uring on /dev/" + generic->block_name);
    }
    nsids_.push_back(static_cast<uint32_t>(nsid));
    lba_bytes_.push_back(generic->lba_bytes);
  }
  return OkStatus();
}

Status IoUringEngine::RegisterBuffers(std::span<const IoBuffer> buffers) {
  if (buffers.empty()) return OkStatus();  // a probe: nothing to register
  // The kernel's most registered buffers (UIO_MAXIOV).
  constexpr size_t kMaxRegistered = 16384;
  if (buffers.size() > kMaxRegistered) {
    return RuntimeError(
        fmt::format("{} IO buffers are more than the kernel registers ({})",
                    buffers.size(), kMaxRegistered),
        fmt::format("use --iodepth {} or less", kMaxRegistered));
  }
  std::vector<iovec> regions;
  for (const IoBuffer& buffer : buffers) {
    regions.push_back({buffer.base, buffer.bytes});
  }
  const int rc = io_uring_register_buffers(
      &ring_, regions.data(), static_cast<unsigned>(regions.size()));
  if (rc < 0) {
    return RuntimeError(
        fmt::format("registering {} IO buffers failed: {}", regions.size(),
                    ErrnoText(rc)),
        rc == -ENOMEM
            ? "registered buffers count against the locked-memory limit: "
              "raise it (ulimit -l), or lower --iodepth or --bs"
            : "drop --fixedbufs");
  }
  fixed_buffers_ = true;
  return OkStatus();
}

std::string IoUringEngine::SetupText() const {
  std::vector<std::string> parts;
  std::string flags;
  for (const FlagName& name : kFlagNames) {
    if ((setup_flags_ & name.flag) == 0) continue;
    if (!flags.empty()) flags += ' ';
    flags += name.name;
    if (name.flag == IORING_SETUP_SQ_AFF) {
      flags += fmt::format("(CPU {})", sqpoll_cpu_);
    }
  }
  parts.push_back("ring " + (flags.empty() ? std::string("default") : flags));
  if (fixed_files_) parts.emplace_back("registered files");
  if (fixed_buffers_) parts.emplace_back("registered buffers");
  if (!buffers_refused_.empty()) {
    parts.push_back("unregistered buffers (" + buffers_refused_ + ")");
  }
  if (ring_fd_registered_) parts.emplace_back("registered ring fd");
  return fmt::format(
      "{}: {}",
      kind_ == Kind::kFiles ? "io_uring" : "io_uring_cmd (NVMe passthrough)",
      fmt::join(parts, ", "));
}

QueueResult IoUringEngine::Queue(IoUnit* unit) {
  if (outstanding_ >= depth_) return QueueResult::kBusy;
  nvme_uring_cmd command;
  if (kind_ == Kind::kNvmeCommands &&
      !BuildNvmeIo(*unit, nsids_[unit->file], lba_bytes_[unit->file], command))
      [[unlikely]] {
    unit->result = -EINVAL;  // not whole LBAs
    return QueueResult::kCompleted;
  }
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  if (sqe == nullptr) [[unlikely]]
    return QueueResult::kBusy;
  const int fd = fixed_files_ ? static_cast<int>(unit->file) : fds_[unit->file];
  if (kind_ == Kind::kNvmeCommands) {
    io_uring_prep_rw(IORING_OP_URING_CMD, sqe, fd, nullptr, 0, 0);
    sqe->cmd_op = NVME_URING_CMD_IO;
    // The command starts at the zero-length `cmd` member (byte 48) and runs
    // into the entry's second half (SQE128).
    unsigned char* entry = reinterpret_cast<unsigned char*>(sqe);
    std::memcpy(entry + offsetof(io_uring_sqe, cmd), &command, sizeof(command));
  } else if (fixed_buffers_) {
    const int index = static_cast<int>(unit->buffer_index);
    if (unit->op == IoOp::kRead) {
      io_uring_prep_read_fixed(sqe, fd, unit->buffer, unit->length,
                               unit->offset, index);
    } else {
      io_uring_prep_write_fixed(sqe, fd, unit->buffer, unit->length,
                                unit->offset, index);
    }
  } else if (unit->op == IoOp::kRead) {
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

Status IoUringEngine::Start() {
  if ((setup_flags_ & IORING_SETUP_R_DISABLED) != 0) {
    // liburing 2.3 declares io_uring_enable_rings() but does not export it.
    const int rc = io_uring_register(static_cast<unsigned>(ring_.ring_fd),
                                     IORING_REGISTER_ENABLE_RINGS, nullptr, 0);
    if (rc < 0) {
      return RuntimeError(
          fmt::format("engine io_uring: enabling the ring failed: {}",
                      ErrnoText(rc)),
          "try --engine libaio");
    }
  }
  // Saves the descriptor lookup of every io_uring_enter(); refused before
  // Linux 5.18, where the plain descriptor serves.
  ring_fd_registered_ = io_uring_register_ring_fd(&ring_) == 1;
  started_ = true;
  return OkStatus();
}

Result<int> IoUringEngine::Commit() { return Submit(0); }

Result<int> IoUringEngine::Submit(unsigned wait_nr) {
  if (queued_ == 0) return 0;
  if (!started_) [[unlikely]] {
    if (Status status = Start(); !status.ok()) return status.error();
  }
  int rc;
  do {
    rc = wait_nr == 0 ? io_uring_submit(&ring_)
                      : io_uring_submit_and_wait(&ring_, wait_nr);
  } while (rc == -EINTR);
  if (rc >= 0) {
    // Failed submissions also count: their error arrives as a completion.
    // With SQPOLL everything flushed to the ring is the kernel's: the count
    // returned is what its thread has not consumed yet, which may be less.
    const auto taken = (setup_flags_ & IORING_SETUP_SQPOLL) != 0
                           ? queued_
                           : std::min(static_cast<uint32_t>(rc), queued_);
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
    if (kind_ == Kind::kNvmeCommands && cqe->res >= 0) {
      // 0: the command succeeded; above 0: an NVMe status code.
      unit->result = cqe->res == 0 ? unit->length : -EIO;
    }
    out[n++] = unit;
  }
  io_uring_cq_advance(&ring_, static_cast<unsigned>(n));
  in_kernel_ -= static_cast<uint32_t>(n);
  outstanding_ -= static_cast<uint32_t>(n);
  return n;
}

Result<int> IoUringEngine::Reap(int min, int max, IoUnit** out) {
  int got = 0;
  if (queued_ > 0) {
    // What is queued goes in first; when completions must be waited for,
    // in the same io_uring_enter() as the wait.
    if (in_kernel_ > 0 && max > 0) got = Drain(out, max);
    const uint32_t wanted =
        min > got && max > got ? static_cast<uint32_t>(std::min(min, max) - got)
                               : 0;
    const uint32_t wait_nr = std::min(wanted, in_kernel_ + queued_);
    if (Result<int> taken = Submit(wait_nr); !taken.ok()) return taken.error();
  }
  if (max <= 0 || in_kernel_ == 0) return got;
  got += Drain(out + got, max - got);
  // With DEFER_TASKRUN completions are posted only when we enter the
  // kernel, and with IOPOLL only a poll finds them, so a non-blocking reap
  // that found nothing asks for them.
  if (got == 0 && min <= 0 && reap_enters_) {
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
