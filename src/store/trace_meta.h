// How a stored trace's header beyond its columns (devices, processes,
// notes) is kept in `traces.meta_json`, and the packed form of its IOs in
// `trace_chunks` (44 bytes each, little endian). Shared by the trace
// writer, reader and store (store/trace_store.h). Pure; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/block_io_trace.h"

namespace flashmark {

inline constexpr size_t kPackedTracedIoBytes = 44;
inline constexpr size_t kTracedIosPerChunk = 65536;

// meta_json of `trace` (its devices, processes and notes).
std::string TraceMetaJson(const BlockIoTrace& trace);
// Adds meta_json's devices, processes and notes to `trace`; an Error for
// text flashmark does not write.
Status ReadTraceMetaJson(const std::string& text, BlockIoTrace& trace);

// The packed form of IOs (exposed for tests and the fuzzer).
std::vector<uint8_t> PackTracedIos(const TracedIo* ios, size_t count);
Result<std::vector<TracedIo>> UnpackTracedIos(const std::vector<uint8_t>& blob);

}  // namespace flashmark
