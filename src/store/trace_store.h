// TraceStore: block IO traces (model/block_io_trace.h) kept beside the runs
// in the same SQLite file (schema v9): one `traces` row per trace (its
// source, origin, times, counts, devices, processes and notes) and its IOs
// packed in `trace_chunks` of up to 65,536 IOs (44 bytes each, little
// endian, store/trace_meta.h), so that a trace of millions of IOs is a
// few hundred rows. A trace is written in one transaction, all of it or
// nothing, either IO by IO (BeginTrace: store/trace_writer.h, for imports
// of any length) or whole (Save, for a small trace in memory); it is read
// chunk by chunk (Read: store/trace_reader.h) or whole (Load). An imported
// file's SHA-256 is kept, so that importing it twice can be refused.
//
// Threading: one TraceStore per thread (its own connection). Errors name
// the file; an unknown trace id is a usage error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/block_io_trace.h"
#include "store/sqlite.h"
#include "store/trace_meta.h"
#include "store/trace_reader.h"
#include "store/trace_writer.h"

namespace flashmark {

class TraceStore {
 public:
  // Opens the database (creating and migrating it like RunStore::Open).
  static Result<TraceStore> Open(const std::string& path);
  // An existing database, for reading only (List, Load, Read, FindByHash).
  static Result<TraceStore> OpenForReading(const std::string& path);

  // Begins a trace's write transaction (see TraceWriter); `chunk_ios`
  // below 65,536 only for tests. The store must not move meanwhile.
  Result<TraceWriter> BeginTrace(size_t chunk_ios = kTracedIosPerChunk);
  // BeginTrace, every IO of `trace`, Finish.
  Result<int64_t> Save(const BlockIoTrace& trace,
                       const std::string& file_hash = "");
  Result<std::vector<StoredTraceHeader>> List();
  // The trace's header, its IOs to be read chunk by chunk.
  Result<TraceReader> Read(int64_t id);
  // The whole trace in memory (Read and every chunk).
  Result<BlockIoTrace> Load(int64_t id);
  // The trace imported from a file with this SHA-256, if any.
  Result<std::optional<int64_t>> FindByHash(const std::string& file_hash);

 private:
  explicit TraceStore(Database db) : db_(std::move(db)) {}
  Database db_;
};

}  // namespace flashmark
