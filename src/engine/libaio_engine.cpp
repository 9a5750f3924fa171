#include "engine/libaio_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <system_error>

#include "engine/sync_engine.h"

namespace flashmark {
namespace {

// The ring io_setup() maps at the context's address (the kernel's struct
// aio_ring, fs/aio.c): a header, then `nr` events. The kernel advances
// `tail` as IOs complete; whoever reaps advances `head` (the kernel reads
// it back in io_getevents() and when it counts free slots at io_submit()).
struct AioRing {
  unsigned id;
  unsigned nr;
  unsigned head;
  unsigned tail;
  unsigned magic;
  unsigned compat_features;
  unsigned incompat_features;
  unsigned header_length;  // where the events start
};
constexpr unsigned kAioRingMagic = 0xa10a10a1;

}  // namespace

LibaioEngine::~LibaioEngine() {
  if (context_ != nullptr) io_destroy(context_);
}

Status LibaioEngine::Prep(const EngineSetup& setup) {
  if (Status tuned = CheckTuning("libaio", kCapabilities, setup.tuning);
      !tuned.ok()) {
    return tuned;
  }
  const std::span<const IoFile> files = setup.files;
  const int depth = setup.depth;
  if (context_ != nullptr) {
    return RuntimeError("engine libaio: Prep() called twice",
                        "this is a flashmark bug; please report it");
  }
  if (depth < 1) {
    return RuntimeError(
        fmt::format("engine libaio: queue depth {} is not a positive number",
                    depth),
        "use --iodepth 1 or more");
  }
  const int rc = io_setup(depth, &context_);
  if (rc < 0) {
    context_ = nullptr;
    std::string hint = "try --engine psync";
    if (rc == -EAGAIN) {
      hint =
          "the system-wide limit /proc/sys/fs/aio-max-nr is exhausted; "
          "raise it (sysctl fs.aio-max-nr) or use a smaller --iodepth";
    } else if (rc == -ENOSYS || rc == -EPERM) {
      hint =
          "Linux AIO is unavailable here (kernel or container policy); "
          "try --engine io_uring or psync";
    }
    return RuntimeError(
        fmt::format("engine libaio: io_setup(depth {}) failed: {}", depth,
                    std::generic_category().message(-rc)),
        std::move(hint));
  }
  const auto* ring = reinterpret_cast<const AioRing*>(context_);
  ring_readable_ = ring->magic == kAioRingMagic &&
                   ring->incompat_features == 0 &&
                   ring->header_length == sizeof(AioRing);
  files_.assign(files.begin(), files.end());
  fds_.clear();
  for (const IoFile& file : files_) fds_.push_back(file.fd);

  depth_ = static_cast<uint32_t>(depth);
  iocbs_.assign(depth_, iocb{});
  free_.resize(depth_);
  for (uint32_t i = 0; i < depth_; ++i) free_[i] = &iocbs_[i];
  free_count_ = depth_;
  pending_.assign(depth_, nullptr);
  failed_.assign(depth_, nullptr);
  events_.assign(depth_, io_event{});
  pending_count_ = failed_count_ = in_kernel_ = outstanding_ = 0;
  return OkStatus();
}

QueueResult LibaioEngine::Queue(IoUnit* unit) {
  if (outstanding_ >= depth_) return QueueResult::kBusy;
  iocb* cb = free_[--free_count_];
  const int fd = fds_[unit->file];
  if (unit->op == IoOp::kRead) {
    io_prep_pread(cb, fd, unit->buffer, unit->length,
                  static_cast<long long>(unit->offset));
  } else {
    io_prep_pwrite(cb, fd, unit->buffer, unit->length,
                   static_cast<long long>(unit->offset));
  }
  cb->data = unit;
  pending_[pending_count_++] = cb;
  ++outstanding_;
  return QueueResult::kQueued;
}

int LibaioEngine::SubmitPending() {
  uint32_t head = 0;
  while (head < pending_count_) {
    const int rc = io_submit(context_, pending_count_ - head, &pending_[head]);
    if (rc > 0) {  // possibly partial: submit the rest
      head += static_cast<uint32_t>(rc);
      in_kernel_ += static_cast<uint32_t>(rc);
      continue;
    }
    if (rc == -EINTR) continue;
    if (rc == 0 || rc == -EAGAIN) break;  // short of resources: retry later
    // The kernel rejected the first iocb (bad descriptor, unsupported
    // operation...): complete that unit with the error, go on with the rest.
    iocb* cb = pending_[head++];
    auto* unit = static_cast<IoUnit*>(cb->data);
    unit->result = rc;
    failed_[failed_count_++] = unit;
    Release(cb);
  }
  if (head > 0) {
    std::copy(pending_.begin() + head, pending_.begin() + pending_count_,
              pending_.begin());
    pending_count_ -= head;
  }
  return static_cast<int>(head);
}

Result<int> LibaioEngine::Commit() { return SubmitPending(); }

Result<int> LibaioEngine::Reap(int min, int max, IoUnit** out) {
  if (pending_count_ > 0) SubmitPending();
  int got = 0;
  while (failed_count_ > 0 && got < max) out[got++] = failed_[--failed_count_];
  if (got < max && in_kernel_ > 0) {
    const long in_kernel = static_cast<long>(in_kernel_);
    const long want = std::clamp(static_cast<long>(min - got), 0L, in_kernel);
    const long room = std::min(static_cast<long>(max - got), in_kernel);
    int rc = ReadRing(events_.data(), static_cast<int>(room));
    if (rc < want || !ring_readable_) {
      // A zero timeout lets libaio see an empty ring without a syscall.
      timespec zero{0, 0};
      int waited;
      do {
        waited =
            io_getevents(context_, want - rc, room - rc, events_.data() + rc,
                         want - rc == 0 ? &zero : nullptr);
      } while (waited == -EINTR);
      if (waited < 0 && (got > 0 || rc > 0)) waited = 0;  // hand back these
      if (waited < 0) {
        return RuntimeError(
            fmt::format("engine libaio: io_getevents failed: {}",
                        std::generic_category().message(-waited)),
            "try --engine psync");
      }
      rc += waited;
    }
    for (int i = 0; i < rc; ++i) {
      const io_event& event = events_[i];
      auto* unit = static_cast<IoUnit*>(event.data);
      unit->result = static_cast<long>(event.res);
      Release(event.obj);
      out[got++] = unit;
    }
    in_kernel_ -= static_cast<uint32_t>(rc);
  }
  outstanding_ -= static_cast<uint32_t>(got);
  return got;
}

int LibaioEngine::ReadRing(io_event* events, int max) {
  if (!ring_readable_) return 0;
  auto* ring = reinterpret_cast<AioRing*>(context_);
  const auto* posted = reinterpret_cast<const io_event*>(
      reinterpret_cast<const char*>(ring) + ring->header_length);
  unsigned head = ring->head;
  // Acquire: the events up to `tail` are written before it is.
  const unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
  if (head >= ring->nr || tail >= ring->nr) return 0;  // let the kernel read
  int n = 0;
  while (n < max && head != tail) {
    events[n++] = posted[head];
    head = head + 1 == ring->nr ? 0 : head + 1;
  }
  // Release: the slots are read before the kernel may reuse them.
  if (n > 0) __atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
  return n;
}

Status LibaioEngine::Sync(uint32_t file, FsyncMode mode) {
  if (file >= files_.size()) return BadFileIndex("libaio", file, files_.size());
  return SyncFile(files_[file], mode);
}

}  // namespace flashmark
