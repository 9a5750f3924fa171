#include "engine/mmap_engine.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "engine/sync_engine.h"

namespace flashmark {
namespace {

std::string SystemErrorText(int err) {
  return std::generic_category().message(err);
}

}  // namespace

MmapEngine::~MmapEngine() { UnmapAll(); }

void MmapEngine::UnmapAll() {
  for (const Mapping& mapping : mappings_) {
    if (mapping.base != nullptr) munmap(mapping.base, mapping.size);
  }
  mappings_.clear();
}

Status MmapEngine::Prep(const EngineSetup& setup) {
  if (Status tuned = CheckTuning("mmap", kCapabilities, setup.tuning);
      !tuned.ok()) {
    return tuned;
  }
  const std::span<const IoFile> files = setup.files;
  const int depth = setup.depth;
  if (depth < 1) {
    return RuntimeError(
        fmt::format("engine mmap: queue depth {} is not a positive number",
                    depth),
        "use --iodepth 1");
  }
  UnmapAll();
  files_.assign(files.begin(), files.end());
  mappings_.reserve(files_.size());
  for (const IoFile& file : files_) {
    const int status_flags = fcntl(file.fd, F_GETFL);
    if (status_flags < 0) {
      const int err = errno;
      UnmapAll();
      return RuntimeError(
          fmt::format("engine mmap: {}: {}", file.path, SystemErrorText(err)),
          "the file is not open; this is a flashmark bug");
    }
    const int access = status_flags & O_ACCMODE;
    if (access == O_WRONLY) {
      UnmapAll();
      return RuntimeError(
          fmt::format("engine mmap: {}: opened write-only, which cannot be "
                      "mapped",
                      file.path),
          "the mmap engine needs the file open for reading too");
    }
    Mapping mapping;
    mapping.size = file.size;
    mapping.writable = access == O_RDWR;
    if (file.size > 0) {
      const int protection =
          mapping.writable ? PROT_READ | PROT_WRITE : PROT_READ;
      void* base = mmap(nullptr, file.size, protection, MAP_SHARED, file.fd, 0);
      if (base == MAP_FAILED) {
        const int err = errno;
        UnmapAll();
        return RuntimeError(
            fmt::format("engine mmap: mapping {} ({} bytes) failed: {}",
                        file.path, file.size, SystemErrorText(err)),
            err == ENODEV ? "this file type cannot be mapped; use --engine "
                            "psync"
                          : "use fewer or smaller files, or --engine psync");
      }
      mapping.base = static_cast<char*>(base);
    }
    mappings_.push_back(mapping);
  }
  return OkStatus();
}

QueueResult MmapEngine::Queue(IoUnit* unit) {
  const Mapping& mapping = mappings_[unit->file];
  if (unit->offset >= mapping.size) {
    unit->result = 0;
    return QueueResult::kCompleted;
  }
  const uint64_t length =
      std::min<uint64_t>(unit->length, mapping.size - unit->offset);
  char* at = mapping.base + unit->offset;
  if (unit->op == IoOp::kRead) {
    std::memcpy(unit->buffer, at, length);
  } else if (mapping.writable) {
    std::memcpy(at, unit->buffer, length);
  } else {
    unit->result = -EBADF;  // as write() on a read-only descriptor
    return QueueResult::kCompleted;
  }
  unit->result = static_cast<int64_t>(length);
  return QueueResult::kCompleted;
}

Status MmapEngine::Sync(uint32_t file, FsyncMode mode) {
  if (file >= mappings_.size()) {
    return BadFileIndex("mmap", file, mappings_.size());
  }
  const Mapping& mapping = mappings_[file];
  if (mapping.base != nullptr && mapping.writable &&
      msync(mapping.base, mapping.size, MS_SYNC) != 0) {
    const int err = errno;
    return RuntimeError(
        fmt::format("msync {}: {}", files_[file].path, SystemErrorText(err)),
        "the device reported a write error; check `dmesg`");
  }
  // msync() writes the data; fsync() semantics also want the metadata.
  if (mode == FsyncMode::kFsync && mapping.writable) {
    return SyncFile(files_[file], mode);
  }
  return OkStatus();
}

}  // namespace flashmark
