#include "workload/trace_placement.h"

#include <algorithm>

namespace flashmark {

ReplayedIoPlace PlaceTracedIo(const TracePlacement& placement,
                              TraceOffsetMap map, uint64_t offset,
                              uint32_t length) {
  const uint64_t mapped = MapTraceOffset(
      map, offset, length, placement.traced_extent, placement.span());
  if (placement.files <= 1 || placement.file_bytes == 0) {
    return {placement.first_file, mapped};
  }
  const uint64_t index =
      std::min<uint64_t>(mapped / placement.file_bytes, placement.files - 1);
  uint64_t within = mapped - index * placement.file_bytes;
  if (within + length > placement.file_bytes &&
      length <= placement.file_bytes) {
    constexpr uint64_t kMostAlignment = 4096;
    const uint64_t alignment =
        mapped == 0 ? kMostAlignment
                    : std::min(kMostAlignment, mapped & (~mapped + 1));
    within = (placement.file_bytes - length) / alignment * alignment;
  }
  return {placement.first_file + static_cast<uint32_t>(index), within};
}

}  // namespace flashmark
