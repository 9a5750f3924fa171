// TargetSectors: where the run's bytes lie on block devices, so that an
// IO (file, offset, length) can be found among the block layer's events
// (system/latency_join.h). A block device target is its own place (a
// partition is its whole disk from the partition's start); a regular
// file's extents come from the kernel (FIEMAP), read once when mapped:
// flashmark lays its files out before a run and never moves them, and a
// file whose extents the file system has not allocated yet (a sparse or
// delayed-allocation write) is untraced where it falls.
// Devices are named as the tracepoints name them: major << 20 | minor of
// the whole disk. Threading: immutable once mapped.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/result.h"
#include "engine/io_engine.h"

namespace flashmark {

// A run of a file's bytes on its whole disk.
struct SectorExtent {
  uint64_t logical = 0;   // bytes into the file
  uint64_t physical = 0;  // bytes into the whole disk
  uint64_t length = 0;
};

struct SectorPlace {
  uint32_t dev = 0;
  uint64_t sector = 0;
  uint32_t sectors = 0;
};

class TargetSectors {
 public:
  // An error says why the targets cannot be placed (a file system with no
  // block device under it: tmpfs, a network file system).
  static Result<TargetSectors> Map(std::span<const IoFile> files);

  // Where the IO lies; nullopt when it is not on one extent.
  std::optional<SectorPlace> Find(uint32_t file, uint64_t offset,
                                  uint32_t length) const;
  // The whole disks under the targets, for the trace's filter.
  const std::vector<uint32_t>& devices() const { return devices_; }

 private:
  struct FilePlace {
    uint32_t dev = 0;
    std::vector<SectorExtent> extents;  // by `logical`
  };
  std::vector<FilePlace> files_;
  std::vector<uint32_t> devices_;
};

}  // namespace flashmark
