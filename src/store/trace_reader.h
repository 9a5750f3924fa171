// TraceReader: a stored block IO trace read chunk by chunk
// (TraceStore::Read, or TraceReader::Open with its own connection), so
// that a summary or a replay never holds the whole trace: the header
// (source, origin, times, devices, processes, notes, counts) is read
// first; Next() hands out one stored chunk (at most 65,536 IOs, ~3 MiB)
// at a time, in trace order; Rewind() starts over. A trace whose chunks
// do not add up to the IOs it was saved with is an Error at its end.
//
// Threading: one thread at a time. Open()'s reader owns its read-only
// connection, so it may be handed to another thread (a replay's
// prefetcher) while the opening thread goes on with its own connections;
// TraceStore::Read's borrows the store's (which must outlive it and not
// move, and is not used meanwhile).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/trace_io_stream.h"
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

// The `traces` columns a StoredTraceHeader is read from, in the order
// StoredTraceHeaderOfRow takes them (columns 0 to 8 of a SELECT).
inline constexpr const char* kStoredTraceHeaderColumns =
    "id, source, origin, start_unix_ns, duration_ns, ios, bytes, complete, "
    "file_hash";
StoredTraceHeader StoredTraceHeaderOfRow(const Statement& row);

class TraceReader : public TraceIoSource {
 public:
  // Opens the database read-only (as TraceStore::OpenForReading) for this
  // reader alone. An unknown id is a usage error.
  static Result<TraceReader> Open(const std::string& path, int64_t id);
  TraceReader(TraceReader&&) noexcept = default;
  TraceReader& operator=(TraceReader&&) = delete;
  ~TraceReader() override = default;

  const StoredTraceHeader& stored() const { return stored_; }
  // The trace without its IOs (`ios` empty).
  const BlockIoTrace& header() const { return header_; }

  Status Next(std::vector<TracedIo>& ios) override;
  Status Rewind();

 private:
  friend class TraceStore;
  static Result<TraceReader> Start(Database* db,
                                   std::unique_ptr<Database> owned, int64_t id);
  TraceReader(Database* db, std::unique_ptr<Database> owned)
      : owned_(std::move(owned)), db_(db) {}

  std::unique_ptr<Database> owned_;  // Open()'s connection; else borrowed
  Database* db_ = nullptr;
  std::optional<Statement> chunks_;  // prepared at the first Next()
  StoredTraceHeader stored_;
  BlockIoTrace header_;
  int64_t next_seq_ = 0;
  uint64_t read_ = 0;
  bool done_ = false;
};

}  // namespace flashmark
