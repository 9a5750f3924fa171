#include "store/trace_meta.h"

#include <fmt/format.h>

#include <cstdlib>

#include "common/json_text.h"

namespace flashmark {
namespace {

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

}  // namespace

std::string TraceMetaJson(const BlockIoTrace& trace) {
  nlohmann::json devices = nlohmann::json::array();
  for (const TraceDevice& d : trace.devices)
    devices.push_back({{"name", d.name}, {"bytes", d.bytes}});
  nlohmann::json processes = nlohmann::json::object();
  for (const auto& [pid, name] : trace.processes)
    processes[std::to_string(pid)] = name;
  return JsonTextKeepingBytes({{"devices", std::move(devices)},
                               {"processes", std::move(processes)},
                               {"notes", trace.notes}});
}

Status ReadTraceMetaJson(const std::string& text, BlockIoTrace& trace) {
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

std::vector<uint8_t> PackTracedIos(const TracedIo* ios, size_t count) {
  std::vector<uint8_t> blob(count * kPackedTracedIoBytes);
  for (size_t i = 0; i < count; ++i) {
    const TracedIo& io = ios[i];
    uint8_t* at = blob.data() + i * kPackedTracedIoBytes;
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
  if (blob.size() % kPackedTracedIoBytes != 0) {
    return RuntimeError(fmt::format(
        "a stored trace chunk holds {} bytes, not a whole number of IOs",
        blob.size()));
  }
  std::vector<TracedIo> ios(blob.size() / kPackedTracedIoBytes);
  for (size_t i = 0; i < ios.size(); ++i) {
    const uint8_t* at = blob.data() + i * kPackedTracedIoBytes;
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

}  // namespace flashmark
