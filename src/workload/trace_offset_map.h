// Where a replayed IO lands when the target is smaller than the traced
// device (`flashmark replay --map`). Pure; thread-safe.
//
// Definitions, for an IO at `offset` of `length` bytes, a traced extent S
// (the traced device's size, or the end of its furthest IO when larger or
// unknown) and a target of T bytes; T' = T rounded down to 4 KiB (T when
// smaller than 4 KiB); A = the IO's own alignment (the largest power of
// two dividing its offset, at most 4 KiB), so a 4 KiB-aligned trace stays
// 4 KiB-aligned (O_DIRECT):
//   none:   offset unchanged (the caller refuses a trace larger than T).
//   linear: offset x (T' - length) / (S - length), rounded down to A:
//           the IO keeps its relative place on the device (a sequential
//           stream is compressed by T'/S, so its IOs may overlap).
//   modulo: offset mod T', rounded down to A; an IO that would then cross
//           the end is moved back to end there (T' - length, rounded down
//           to A): offsets that differ by T' land on the same blocks.
//   wrap:   offset mod T', rounded down to A; an IO that would cross the
//           end starts over at 0 instead (a stream running off the end
//           carries on from the start, as a circular log would).
// An IO longer than T' lands at 0 (it is then cut by the target's end:
// the caller refuses such a trace instead).
// Units: bytes.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/result.h"

namespace flashmark {

enum class TraceOffsetMap { kNone, kLinear, kModulo, kWrap };

// "none", "linear", "modulo", "wrap".
const char* TraceOffsetMapName(TraceOffsetMap map);
// A --map value; a usage error naming it and the choices otherwise.
Result<TraceOffsetMap> ParseTraceOffsetMap(std::string_view text);

uint64_t MapTraceOffset(TraceOffsetMap map, uint64_t offset, uint32_t length,
                        uint64_t traced_extent, uint64_t target_bytes);

}  // namespace flashmark
