// TraceWriter: stores a block IO trace IO by IO (TraceStore::BeginTrace),
// so that an importer never holds the whole trace: IOs appended in trace
// order (issue_ns never decreasing) are packed into a `trace_chunks` row
// each time `chunk_ios` (65,536) have come; Finish() writes the last
// chunk and the `traces` row's header and counts (IOs, bytes, complete,
// notes, devices, processes, duration) and commits. All of it is one
// transaction: a writer destroyed before Finish() (an import that failed
// or was interrupted), or a Finish() that fails, stores nothing.
//
// Memory: one chunk of IOs (~3 MiB). Threading: the thread of its
// TraceStore, which it borrows (and which must outlive it and not move);
// the store is busy (its one write transaction) until the writer is done.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/trace_io_stream.h"
#include "store/sqlite.h"

namespace flashmark {

class TraceWriter : public TraceIoSink {
 public:
  TraceWriter(TraceWriter&&) noexcept = default;
  TraceWriter& operator=(TraceWriter&&) = delete;
  ~TraceWriter() override = default;  // unfinished: rolled back

  // An IO issued before the one appended last is an Error (nothing of the
  // trace is stored once the writer is dropped).
  Status Append(const TracedIo& io) override;
  // `header`: the trace without its IOs (its `ios` are ignored); an IO on
  // a device the header does not list is an Error. Returns the trace's id.
  Result<int64_t> Finish(const BlockIoTrace& header,
                         const std::string& file_hash = "");
  uint64_t ios() const { return ios_; }

 private:
  friend class TraceStore;
  TraceWriter(Database& db, Transaction transaction, Statement insert_chunk,
              int64_t id, size_t chunk_ios)
      : db_(&db),
        transaction_(std::move(transaction)),
        insert_chunk_(std::move(insert_chunk)),
        id_(id),
        chunk_ios_(chunk_ios) {}
  Status WriteChunk();

  Database* db_;
  std::optional<Transaction> transaction_;  // rolled back unless committed
  std::optional<Statement> insert_chunk_;   // finalized before the rollback
  int64_t id_ = 0;
  size_t chunk_ios_ = 0;
  std::vector<TracedIo> pending_;
  int64_t seq_ = 0;
  uint64_t ios_ = 0;
  uint64_t bytes_ = 0;
  int64_t last_issue_ns_ = INT64_MIN;
  uint32_t devices_used_ = 0;  // highest device index + 1
  bool failed_ = false;
};

}  // namespace flashmark
