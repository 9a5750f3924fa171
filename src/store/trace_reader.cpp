#include "store/trace_reader.h"

#include <fmt/format.h>

#include "store/store_file.h"
#include "store/trace_meta.h"

namespace flashmark {

StoredTraceHeader StoredTraceHeaderOfRow(const Statement& row) {
  StoredTraceHeader h;
  h.id = row.Int(0);
  h.source = row.Text(1);
  h.origin = row.Text(2);
  h.start_unix_ns = row.Int(3);
  h.duration_ns = row.Int(4);
  h.ios = static_cast<uint64_t>(row.Int(5));
  h.bytes = static_cast<uint64_t>(row.Int(6));
  h.complete = row.Int(7) != 0;
  h.file_hash = row.Text(8);
  return h;
}

Result<TraceReader> TraceReader::Open(const std::string& path, int64_t id) {
  auto db = OpenStoreForReading(path);
  if (!db.ok()) return db.error();
  auto owned = std::make_unique<Database>(std::move(*db));
  Database* raw = owned.get();
  return Start(raw, std::move(owned), id);
}

Result<TraceReader> TraceReader::Start(Database* db,
                                       std::unique_ptr<Database> owned,
                                       int64_t id) {
  auto select =
      db->Prepare(fmt::format("SELECT {}, meta_json FROM traces WHERE id = ?1",
                              kStoredTraceHeaderColumns));
  if (!select.ok()) return select.error();
  select->Bind(1, id);
  auto row = select->Step();
  if (!row.ok()) return row.error();
  if (!*row) {
    return UsageError(fmt::format("no trace {} in {}", id, db->path()),
                      "see `flashmark list --traces`");
  }
  TraceReader reader(db, std::move(owned));
  reader.stored_ = StoredTraceHeaderOfRow(*select);
  const StoredTraceHeader& h = reader.stored_;
  BlockIoTrace& trace = reader.header_;
  trace.source = h.source;
  trace.origin = h.origin;
  trace.start_unix_ns = h.start_unix_ns;
  trace.duration_ns = h.duration_ns;
  trace.complete = h.complete;
  if (Status meta = ReadTraceMetaJson(select->Text(9), trace); !meta.ok())
    return meta.error();
  if (Status rewound = reader.Rewind(); !rewound.ok()) return rewound.error();
  return reader;
}

Status TraceReader::Rewind() {
  next_seq_ = 0;
  read_ = 0;
  done_ = false;
  return OkStatus();
}

Status TraceReader::Next(std::vector<TracedIo>& ios) {
  ios.clear();
  if (done_) return OkStatus();
  // One short read per chunk: no snapshot is held between chunks (the
  // run a replay records is written meanwhile).
  if (!chunks_) {
    auto chunks = db_->Prepare(
        "SELECT seq, data FROM trace_chunks WHERE trace_id = ?1 AND seq >= ?2 "
        "ORDER BY seq LIMIT 1");
    if (!chunks.ok()) return chunks.error();
    chunks_.emplace(std::move(*chunks));
  }
  chunks_->Reset();
  chunks_->Bind(1, stored_.id).Bind(2, next_seq_);
  auto next = chunks_->Step();
  if (!next.ok()) return next.error();
  if (!*next) {
    done_ = true;
    chunks_->Reset();
    if (read_ != stored_.ios) {
      return RuntimeError(
          fmt::format("trace {} in {} holds {} IOs of the {} it was saved with",
                      stored_.id, db_->path(), read_, stored_.ios));
    }
    return OkStatus();
  }
  next_seq_ = chunks_->Int(0) + 1;
  auto unpacked = UnpackTracedIos(chunks_->Blob(1));
  chunks_->Reset();
  if (!unpacked.ok()) return unpacked.error();
  ios = std::move(*unpacked);
  read_ += ios.size();
  return OkStatus();
}

}  // namespace flashmark
