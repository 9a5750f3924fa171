#include "store/trace_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "common/json_text.h"
#include "store/run_store.h"
#include "store/store_file.h"

namespace flashmark {
namespace {

constexpr size_t kPackedIoBytes = 44;
constexpr size_t kIosPerChunk = 65536;

void PutLittle(uint8_t* at, uint64_t value, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i)
    at[i] = static_cast<uint8_t>(value >> (8 * i));
}

uint64_t GetLittle(const uint8_t* at, size_t bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes; ++i)
    value |= static_cast<uint64_t>(at[i]) << (8 * i);
  return value;
}

nlohmann::json TraceMeta(const BlockIoTrace& trace) {
  nlohmann::json devices = nlohmann::json::array();
  for (const TraceDevice& d : trace.devices)
    devices.push_back({{"name", d.name}, {"bytes", d.bytes}});
  nlohmann::json processes = nlohmann::json::object();
  for (const auto& [pid, name] : trace.processes)
    processes[std::to_string(pid)] = name;
  return {{"devices", std::move(devices)},
          {"processes", std::move(processes)},
          {"notes", trace.notes}};
}

Status ReadTraceMeta(const std::string& text, BlockIoTrace& trace) {
  const nlohmann::json meta = ParseJsonKeepingBytes(text);
  const auto bad = [] {
    return RuntimeError(
        "a stored trace's metadata is not what flashmark "
        "writes");
  };
  if (meta.is_discarded() || !meta.is_object()) return bad();
  const auto devices = meta.find("devices");
  const auto processes = meta.find("processes");
  const auto notes = meta.find("notes");
  if (devices == meta.end() || !devices->is_array() ||
      processes == meta.end() || !processes->is_object() ||
      notes == meta.end() || !notes->is_array())
    return bad();
  for (const nlohmann::json& d : *devices) {
    if (!d.is_object()) return bad();
    trace.devices.push_back(
        {d.value("name", std::string()), d.value("bytes", uint64_t{0})});
  }
  for (auto it = processes->begin(); it != processes->end(); ++it) {
    if (!it.value().is_string()) return bad();
    trace.processes[static_cast<uint32_t>(std::strtoul(
        it.key().c_str(), nullptr, 10))] = it.value().get<std::string>();
  }
  for (const nlohmann::json& note : *notes) {
    if (!note.is_string()) return bad();
    trace.notes.push_back(note.get<std::string>());
  }
  return OkStatus();
}

StoredTraceHeader HeaderOf(const Statement& row) {
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

constexpr const char* kHeaderColumns =
    "id, source, origin, start_unix_ns, duration_ns, ios, bytes, complete, "
    "file_hash";

}  // namespace

std::vector<uint8_t> PackTracedIos(const TracedIo* ios, size_t count) {
  std::vector<uint8_t> blob(count * kPackedIoBytes);
  for (size_t i = 0; i < count; ++i) {
    const TracedIo& io = ios[i];
    uint8_t* at = blob.data() + i * kPackedIoBytes;
    PutLittle(at, static_cast<uint64_t>(io.issue_ns), 8);
    PutLittle(at + 8, static_cast<uint64_t>(io.queue_ns), 8);
    PutLittle(at + 16, static_cast<uint64_t>(io.complete_ns), 8);
    PutLittle(at + 24, io.offset, 8);
    PutLittle(at + 32, io.length, 4);
    PutLittle(at + 36, io.pid, 4);
    PutLittle(at + 40, io.device, 2);
    at[42] =
        static_cast<uint8_t>(static_cast<unsigned>(io.op) |
                             (io.sync ? 0x10u : 0u) | (io.fua ? 0x20u : 0u));
  }
  return blob;
}

Result<std::vector<TracedIo>> UnpackTracedIos(
    const std::vector<uint8_t>& blob) {
  if (blob.size() % kPackedIoBytes != 0) {
    return RuntimeError(fmt::format(
        "a stored trace chunk holds {} bytes, not a whole number of IOs",
        blob.size()));
  }
  std::vector<TracedIo> ios(blob.size() / kPackedIoBytes);
  for (size_t i = 0; i < ios.size(); ++i) {
    const uint8_t* at = blob.data() + i * kPackedIoBytes;
    TracedIo& io = ios[i];
    io.issue_ns = static_cast<int64_t>(GetLittle(at, 8));
    io.queue_ns = static_cast<int64_t>(GetLittle(at + 8, 8));
    io.complete_ns = static_cast<int64_t>(GetLittle(at + 16, 8));
    io.offset = GetLittle(at + 24, 8);
    io.length = static_cast<uint32_t>(GetLittle(at + 32, 4));
    io.pid = static_cast<uint32_t>(GetLittle(at + 36, 4));
    io.device = static_cast<uint16_t>(GetLittle(at + 40, 2));
    const uint8_t flags = at[42];
    if ((flags & 0x0f) > static_cast<uint8_t>(TraceOp::kDiscard))
      return RuntimeError("a stored trace holds an IO of an unknown kind");
    io.op = static_cast<TraceOp>(flags & 0x0f);
    io.sync = (flags & 0x10) != 0;
    io.fua = (flags & 0x20) != 0;
  }
  return ios;
}

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

Result<int64_t> TraceStore::Save(const BlockIoTrace& trace,
                                 const std::string& file_hash) {
  uint64_t bytes = 0;
  for (const TracedIo& io : trace.ios) bytes += io.length;
  auto transaction = Transaction::Begin(db_);
  if (!transaction.ok()) return transaction.error();
  auto insert = db_.Prepare(
      "INSERT INTO traces (source, origin, start_unix_ns, duration_ns, ios, "
      "bytes, complete, file_hash, meta_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
      "?7, ?8, ?9)");
  if (!insert.ok()) return insert.error();
  insert->Bind(1, trace.source)
      .Bind(2, trace.origin)
      .Bind(3, trace.start_unix_ns)
      .Bind(4, trace.duration_ns)
      .Bind(5, static_cast<int64_t>(trace.ios.size()))
      .Bind(6, static_cast<int64_t>(bytes))
      .Bind(7, static_cast<int64_t>(trace.complete ? 1 : 0))
      .Bind(8, file_hash)
      .Bind(9, JsonTextKeepingBytes(TraceMeta(trace)));
  if (auto done = insert->Step(); !done.ok()) return done.error();
  const int64_t id = db_.LastInsertId();
  auto chunk = db_.Prepare(
      "INSERT INTO trace_chunks (trace_id, seq, ios, data) VALUES (?1, ?2, "
      "?3, ?4)");
  if (!chunk.ok()) return chunk.error();
  for (size_t first = 0, seq = 0; first < trace.ios.size();
       first += kIosPerChunk, ++seq) {
    const size_t count = std::min(kIosPerChunk, trace.ios.size() - first);
    chunk->Reset();
    chunk->Bind(1, id)
        .Bind(2, static_cast<int64_t>(seq))
        .Bind(3, static_cast<int64_t>(count))
        .BindBlob(4, PackTracedIos(trace.ios.data() + first, count));
    if (auto done = chunk->Step(); !done.ok()) return done.error();
  }
  if (Status committed = transaction->Commit(); !committed.ok())
    return committed.error();
  return id;
}

Result<std::vector<StoredTraceHeader>> TraceStore::List() {
  auto select = db_.Prepare(
      fmt::format("SELECT {} FROM traces ORDER BY id", kHeaderColumns));
  if (!select.ok()) return select.error();
  std::vector<StoredTraceHeader> headers;
  while (true) {
    auto row = select->Step();
    if (!row.ok()) return row.error();
    if (!*row) break;
    headers.push_back(HeaderOf(*select));
  }
  return headers;
}

Result<BlockIoTrace> TraceStore::Load(int64_t id) {
  auto select = db_.Prepare(fmt::format(
      "SELECT {}, meta_json FROM traces WHERE id = ?1", kHeaderColumns));
  if (!select.ok()) return select.error();
  select->Bind(1, id);
  auto row = select->Step();
  if (!row.ok()) return row.error();
  if (!*row) {
    return UsageError(fmt::format("no trace {} in {}", id, db_.path()),
                      "see `flashmark list --traces`");
  }
  const StoredTraceHeader header = HeaderOf(*select);
  BlockIoTrace trace;
  trace.source = header.source;
  trace.origin = header.origin;
  trace.start_unix_ns = header.start_unix_ns;
  trace.duration_ns = header.duration_ns;
  trace.complete = header.complete;
  if (Status meta = ReadTraceMeta(select->Text(9), trace); !meta.ok())
    return meta.error();
  trace.ios.reserve(header.ios);
  auto chunks = db_.Prepare(
      "SELECT data FROM trace_chunks WHERE trace_id = ?1 ORDER BY seq");
  if (!chunks.ok()) return chunks.error();
  chunks->Bind(1, id);
  while (true) {
    auto next = chunks->Step();
    if (!next.ok()) return next.error();
    if (!*next) break;
    auto ios = UnpackTracedIos(chunks->Blob(0));
    if (!ios.ok()) return ios.error();
    trace.ios.insert(trace.ios.end(), ios->begin(), ios->end());
  }
  if (trace.ios.size() != header.ios) {
    return RuntimeError(
        fmt::format("trace {} in {} holds {} IOs of the {} it was saved with",
                    id, db_.path(), trace.ios.size(), header.ios));
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
