#include "engine/sync_engine.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>

namespace flashmark {
namespace {

int64_t Transfer(int fd, const IoUnit& unit, bool positional) {
  const auto offset = static_cast<off_t>(unit.offset);
  if (!positional && lseek(fd, offset, SEEK_SET) < 0) return -errno;
  ssize_t done;
  do {
    if (unit.op == IoOp::kRead) {
      done = positional ? pread(fd, unit.buffer, unit.length, offset)
                        : read(fd, unit.buffer, unit.length);
    } else {
      done = positional ? pwrite(fd, unit.buffer, unit.length, offset)
                        : write(fd, unit.buffer, unit.length);
    }
  } while (done < 0 && errno == EINTR);
  return done < 0 ? -errno : done;
}

}  // namespace

Status SyncFile(const IoFile& file, FsyncMode mode) {
  const bool data_only = mode == FsyncMode::kFdatasync;
  int rc;
  do {
    rc = data_only ? fdatasync(file.fd) : fsync(file.fd);
  } while (rc < 0 && errno == EINTR);
  if (rc == 0) return OkStatus();
  const int err = errno;
  std::string hint = "the device reported a write error; check `dmesg`";
  if (err == EINVAL || err == EROFS) {
    hint = "this file type does not support syncing; run without --fsync";
  } else if (err == ENOSPC || err == EDQUOT) {
    hint = "the filesystem is full; use a smaller --size";
  } else if (err == EBADF) {
    hint = "the file is not open for writing";
  }
  return RuntimeError(
      fmt::format("{} {}: {}", data_only ? "fdatasync" : "fsync",
                  file.path.empty() ? fmt::format("fd {}", file.fd) : file.path,
                  std::generic_category().message(err)),
      std::move(hint));
}

Error BadFileIndex(const char* engine, uint32_t index, size_t count) {
  return RuntimeError(fmt::format("engine {}: file index {} is out of range "
                                  "({} files prepared)",
                                  engine, index, count),
                      "this is a flashmark bug; please report it");
}

Status SyncEngine::Prep(const EngineSetup& setup) {
  if (Status tuned = CheckTuning(kind_ == Kind::kSeek ? "sync" : "psync",
                                 kCapabilities, setup.tuning);
      !tuned.ok()) {
    return tuned;
  }
  const std::span<const IoFile> files = setup.files;
  const int depth = setup.depth;
  // A depth above 1 is accepted and has no effect: one IO is in flight.
  if (depth < 1) {
    return RuntimeError(
        fmt::format("engine {}: queue depth {} is not a positive number",
                    kind_ == Kind::kSeek ? "sync" : "psync", depth),
        "use --iodepth 1");
  }
  files_.assign(files.begin(), files.end());
  fds_.clear();
  for (const IoFile& file : files_) fds_.push_back(file.fd);
  return OkStatus();
}

QueueResult SyncEngine::Queue(IoUnit* unit) {
  unit->result = Transfer(fds_[unit->file], *unit, kind_ == Kind::kPositional);
  return QueueResult::kCompleted;
}

Status SyncEngine::Sync(uint32_t file, FsyncMode mode) {
  if (file >= files_.size()) {
    return BadFileIndex(kind_ == Kind::kSeek ? "sync" : "psync", file,
                        files_.size());
  }
  return SyncFile(files_[file], mode);
}

}  // namespace flashmark
