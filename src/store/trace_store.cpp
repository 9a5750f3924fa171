#include "store/trace_store.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/run_store.h"
#include "store/store_file.h"

namespace flashmark {

Result<TraceStore> TraceStore::Open(const std::string& path) {
  if (auto runs = RunStore::Open(path); !runs.ok()) return runs.error();
  auto db = Database::Open(path, false);
  if (!db.ok()) return db.error();
  if (Status fk = db->Execute("PRAGMA foreign_keys=ON"); !fk.ok())
    return fk.error();
  return TraceStore(std::move(*db));
}

Result<TraceStore> TraceStore::OpenForReading(const std::string& path) {
  auto db = OpenStoreForReading(path);
  if (!db.ok()) return db.error();
  return TraceStore(std::move(*db));
}

Result<TraceWriter> TraceStore::BeginTrace(size_t chunk_ios) {
  auto transaction = Transaction::Begin(db_);
  if (!transaction.ok()) return transaction.error();
  // The row first (the chunks refer to it); its figures come at Finish.
  auto insert = db_.Prepare(
      "INSERT INTO traces (source, origin, start_unix_ns, duration_ns, ios, "
      "bytes, complete, file_hash, meta_json) VALUES ('', '', 0, 0, 0, 0, 0, "
      "'', '{}')");
  if (!insert.ok()) return insert.error();
  if (Status done = insert->Run(); !done.ok()) return done.error();
  const int64_t id = db_.LastInsertId();
  auto chunk = db_.Prepare(
      "INSERT INTO trace_chunks (trace_id, seq, ios, data) VALUES (?1, ?2, "
      "?3, ?4)");
  if (!chunk.ok()) return chunk.error();
  return TraceWriter(db_, std::move(*transaction), std::move(*chunk), id,
                     std::clamp<size_t>(chunk_ios, 1, kTracedIosPerChunk));
}

Result<int64_t> TraceStore::Save(const BlockIoTrace& trace,
                                 const std::string& file_hash) {
  auto writer = BeginTrace();
  if (!writer.ok()) return writer.error();
  for (const TracedIo& io : trace.ios) {
    if (Status added = writer->Append(io); !added.ok()) return added.error();
  }
  return writer->Finish(trace, file_hash);
}

Result<std::vector<StoredTraceHeader>> TraceStore::List() {
  auto select = db_.Prepare(fmt::format("SELECT {} FROM traces ORDER BY id",
                                        kStoredTraceHeaderColumns));
  if (!select.ok()) return select.error();
  std::vector<StoredTraceHeader> headers;
  while (true) {
    auto row = select->Step();
    if (!row.ok()) return row.error();
    if (!*row) break;
    headers.push_back(StoredTraceHeaderOfRow(*select));
  }
  return headers;
}

Result<TraceReader> TraceStore::Read(int64_t id) {
  return TraceReader::Start(&db_, nullptr, id);
}

Result<BlockIoTrace> TraceStore::Load(int64_t id) {
  auto reader = Read(id);
  if (!reader.ok()) return reader.error();
  BlockIoTrace trace = reader->header();
  trace.ios.reserve(reader->stored().ios);
  std::vector<TracedIo> chunk;
  while (true) {
    if (Status next = reader->Next(chunk); !next.ok()) return next.error();
    if (chunk.empty()) break;
    trace.ios.insert(trace.ios.end(), chunk.begin(), chunk.end());
  }
  return trace;
}

Result<std::optional<int64_t>> TraceStore::FindByHash(
    const std::string& file_hash) {
  auto select =
      db_.Prepare("SELECT id FROM traces WHERE file_hash = ?1 LIMIT 1");
  if (!select.ok()) return select.error();
  select->Bind(1, file_hash);
  auto row = select->Step();
  if (!row.ok()) return row.error();
  if (!*row) return std::optional<int64_t>();
  return std::optional<int64_t>(select->Int(0));
}

}  // namespace flashmark
