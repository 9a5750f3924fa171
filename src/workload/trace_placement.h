// Where a replayed IO lands on the replay's files (runner/replay_worker.h).
// Trace device d is replayed onto its TARGET: one file (an existing file
// or a block device), or a file set (a directory TARGET, laid out by the
// run's rules: `files` files of `file_bytes` each). The traced offset is
// mapped onto the target's whole span (files x file_bytes) by --map
// (workload/trace_offset_map.h), then found in the file that holds it:
// the files laid end to end as one device, offset o lies in file
// o / file_bytes at o mod file_bytes. An IO that would run from one file
// into the next is moved back to end in its file (rounded down to its
// offset's alignment, at most 4 KiB, so O_DIRECT still holds). Pure;
// thread-safe. Units: bytes.
#pragma once

#include <cstdint>

#include "workload/trace_offset_map.h"

namespace flashmark {

struct TracePlacement {
  uint32_t first_file = 0;     // index into the run's files
  uint32_t files = 1;          // more than 1: a file set
  uint64_t file_bytes = 0;     // each file's usable size
  uint64_t traced_extent = 0;  // the traced device's size or furthest IO
  uint64_t span() const { return files * file_bytes; }
};

struct ReplayedIoPlace {
  uint32_t file = 0;
  uint64_t offset = 0;
};

ReplayedIoPlace PlaceTracedIo(const TracePlacement& placement,
                              TraceOffsetMap map, uint64_t offset,
                              uint32_t length);

}  // namespace flashmark
