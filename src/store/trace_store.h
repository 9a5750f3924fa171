// TraceStore: block IO traces (model/block_io_trace.h) kept beside the runs
// in the same SQLite file (schema v9): one `traces` row per trace (its
// source, origin, times, counts, devices, processes and notes) and its IOs
// packed in `trace_chunks` of up to 65,536 IOs (44 bytes each, little
// endian), so that a trace of millions of IOs is a few hundred rows. A
// trace is saved in one transaction: all of it or nothing; an imported
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

namespace flashmark {

// A trace without its IOs: what `list --traces` shows.
struct StoredTraceHeader {
  int64_t id = 0;
  std::string source, origin;
  int64_t start_unix_ns = 0;
  int64_t duration_ns = 0;
  uint64_t ios = 0;
  uint64_t bytes = 0;  // read and written
  bool complete = true;
  std::string file_hash;  // SHA-256 of an imported file; "" for a capture
};

class TraceStore {
 public:
  // Opens the database (creating and migrating it like RunStore::Open).
  static Result<TraceStore> Open(const std::string& path);
  // An existing database, for reading only (List, Load, FindByHash).
  static Result<TraceStore> OpenForReading(const std::string& path);

  Result<int64_t> Save(const BlockIoTrace& trace,
                       const std::string& file_hash = "");
  Result<std::vector<StoredTraceHeader>> List();
  Result<BlockIoTrace> Load(int64_t id);
  // The trace imported from a file with this SHA-256, if any.
  Result<std::optional<int64_t>> FindByHash(const std::string& file_hash);

 private:
  explicit TraceStore(Database db) : db_(std::move(db)) {}
  Database db_;
};

// The packed form of IOs (exposed for tests): 44 bytes each.
std::vector<uint8_t> PackTracedIos(const TracedIo* ios, size_t count);
Result<std::vector<TracedIo>> UnpackTracedIos(const std::vector<uint8_t>& blob);

}  // namespace flashmark
