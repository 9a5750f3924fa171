// SyncEngine: synchronous IO with one system call per unit (model: fio's
// sync and psync engines, sysbench fileio's default).
// - kSeek ("sync"): lseek() then read()/write().
// - kPositional ("psync"): pread()/pwrite().
//
// Contract (see io_engine.h): one worker thread per instance. Queue() does
// the IO and returns kCompleted with result = bytes transferred (a short
// transfer is reported as is, never retried) or -errno; Commit() and Reap()
// do nothing. Honours O_DIRECT descriptors (the runner aligns buffers).
// Prep() copies the file table (no reference to the caller's span is kept)
// and accepts any depth >= 1; one IO is in flight regardless.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/io_engine.h"

namespace flashmark {

// fsync() or fdatasync() of `file`, retrying EINTR. The error names the
// path. Shared by the engines whose Sync() is a plain system call.
Status SyncFile(const IoFile& file, FsyncMode mode);

// "engine <engine>: file index <index> is out of range (<count> files)".
Error BadFileIndex(const char* engine, uint32_t index, size_t count);

class SyncEngine final : public IoEngine {
 public:
  enum class Kind { kSeek, kPositional };
  static constexpr uint32_t kCapabilities = kCapDirectIo;

  explicit SyncEngine(Kind kind) : kind_(kind) {}

  uint32_t capabilities() const override { return kCapabilities; }
  Status Prep(const EngineSetup& setup) override;
  QueueResult Queue(IoUnit* unit) override;
  Result<int> Commit() override { return 0; }
  Result<int> Reap(int /*min*/, int /*max*/, IoUnit** /*out*/) override {
    return 0;
  }
  Status Sync(uint32_t file, FsyncMode mode) override;

 private:
  Kind kind_;
  std::vector<int> fds_;  // hot path: dense, indexed by IoUnit::file
  std::vector<IoFile> files_;
};

}  // namespace flashmark
