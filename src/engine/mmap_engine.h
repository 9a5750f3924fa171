// MmapEngine: IO as memory copies to and from a shared mapping of each file
// (model: fio's mmap engine). Measures the page cache and page-fault path,
// not the block layer; it cannot honour O_DIRECT (no kCapDirectIo).
//
// Contract (see io_engine.h): one worker thread per instance.
// - Prep() maps every file whole (MAP_SHARED), read-write when its
//   descriptor is open read-write, else read-only; a file of size 0 is not
//   mapped. Files must already have their final size (a mapping cannot grow
//   a file); IoFile::size bytes are mapped.
// - Queue() copies and returns kCompleted; result = bytes copied, short at
//   the end of the mapping, 0 past it, -EBADF for a write to a read-only
//   mapping. Commit() and Reap() do nothing.
// - Sync() = msync(MS_SYNC) of the file's mapping, plus fsync() for
//   FsyncMode::kFsync (metadata).
// - The destructor unmaps. A file truncated under a live mapping makes the
//   copy fault (SIGBUS), as with any mmap user.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/io_engine.h"

namespace flashmark {

class MmapEngine final : public IoEngine {
 public:
  static constexpr uint32_t kCapabilities = kCapMemoryMapped;

  MmapEngine() = default;
  ~MmapEngine() override;
  MmapEngine(const MmapEngine&) = delete;
  MmapEngine& operator=(const MmapEngine&) = delete;

  uint32_t capabilities() const override { return kCapabilities; }
  Status Prep(const EngineSetup& setup) override;
  QueueResult Queue(IoUnit* unit) override;
  Result<int> Commit() override { return 0; }
  Result<int> Reap(int /*min*/, int /*max*/, IoUnit** /*out*/) override {
    return 0;
  }
  Status Sync(uint32_t file, FsyncMode mode) override;

 private:
  struct Mapping {
    char* base = nullptr;  // nullptr for an empty file
    uint64_t size = 0;
    bool writable = false;
  };
  void UnmapAll();

  std::vector<Mapping> mappings_;
  std::vector<IoFile> files_;
};

}  // namespace flashmark
