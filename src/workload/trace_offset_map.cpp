#include "workload/trace_offset_map.h"

#include <fmt/format.h>

#include <bit>

namespace flashmark {
namespace {

constexpr uint64_t kMapAlignment = 4096;

uint64_t TraceMapAlignmentOf(uint64_t offset) {
  if (offset == 0) return kMapAlignment;
  return std::min(kMapAlignment, uint64_t{1} << std::countr_zero(offset));
}

}  // namespace

const char* TraceOffsetMapName(TraceOffsetMap map) {
  switch (map) {
    case TraceOffsetMap::kNone:
      return "none";
    case TraceOffsetMap::kLinear:
      return "linear";
    case TraceOffsetMap::kModulo:
      return "modulo";
    case TraceOffsetMap::kWrap:
      return "wrap";
  }
  return "none";
}

Result<TraceOffsetMap> ParseTraceOffsetMap(std::string_view text) {
  for (TraceOffsetMap map : {TraceOffsetMap::kLinear, TraceOffsetMap::kModulo,
                             TraceOffsetMap::kWrap, TraceOffsetMap::kNone}) {
    if (text == TraceOffsetMapName(map)) return map;
  }
  return UsageError(fmt::format("--map: \"{}\" is not a mapping", text),
                    "use --map linear, modulo or wrap");
}

uint64_t MapTraceOffset(TraceOffsetMap map, uint64_t offset, uint32_t length,
                        uint64_t traced_extent, uint64_t target_bytes) {
  if (map == TraceOffsetMap::kNone) return offset;
  const uint64_t target = target_bytes >= kMapAlignment
                              ? target_bytes / kMapAlignment * kMapAlignment
                              : target_bytes;
  if (length >= target) return 0;
  const uint64_t align = TraceMapAlignmentOf(offset);
  const auto down = [align](uint64_t value) { return value / align * align; };
  const uint64_t room = target - length;  // the last offset that fits
  switch (map) {
    case TraceOffsetMap::kLinear: {
      if (traced_extent <= length) return 0;
      // long double: a 64-bit mantissa on x86, exact for any byte offset.
      const long double scaled =
          static_cast<long double>(offset) * static_cast<long double>(room) /
          static_cast<long double>(traced_extent - length);
      return down(std::min(static_cast<uint64_t>(scaled), room));
    }
    case TraceOffsetMap::kModulo: {
      const uint64_t folded = down(offset % target);
      return folded <= room ? folded : down(room);
    }
    case TraceOffsetMap::kWrap: {
      const uint64_t folded = down(offset % target);
      return folded <= room ? folded : 0;
    }
    case TraceOffsetMap::kNone:
      break;
  }
  return offset;
}

}  // namespace flashmark
