#include "store/trace_writer.h"

#include <fmt/format.h>

#include "store/trace_meta.h"

namespace flashmark {

Status TraceWriter::WriteChunk() {
  if (pending_.empty()) return OkStatus();
  insert_chunk_->Reset();
  insert_chunk_->Bind(1, id_)
      .Bind(2, seq_)
      .Bind(3, static_cast<int64_t>(pending_.size()))
      .BindBlob(4, PackTracedIos(pending_.data(), pending_.size()));
  if (Status done = insert_chunk_->Run(); !done.ok()) return done.error();
  ++seq_;
  pending_.clear();
  return OkStatus();
}

Status TraceWriter::Append(const TracedIo& io) {
  if (failed_) return RuntimeError("the trace's import failed before");
  if (io.issue_ns < last_issue_ns_) {
    failed_ = true;
    return RuntimeError(fmt::format(
        "IO {} of the trace is issued at {} ns, before the IO above ({} ns): "
        "a trace is stored in issue order",
        ios_ + 1, io.issue_ns, last_issue_ns_));
  }
  last_issue_ns_ = io.issue_ns;
  if (pending_.capacity() == 0) pending_.reserve(chunk_ios_);
  pending_.push_back(io);
  ++ios_;
  bytes_ += io.length;
  devices_used_ = std::max<uint32_t>(devices_used_, io.device + 1u);
  if (pending_.size() < chunk_ios_) return OkStatus();
  Status written = WriteChunk();
  if (!written.ok()) failed_ = true;
  return written;
}

Result<int64_t> TraceWriter::Finish(const BlockIoTrace& header,
                                    const std::string& file_hash) {
  if (failed_ || !transaction_) {
    return RuntimeError("the trace's import failed before: nothing stored");
  }
  if (devices_used_ > header.devices.size()) {
    return RuntimeError(
        fmt::format("the trace has an IO on device {} but names {} device(s)",
                    devices_used_ - 1, header.devices.size()));
  }
  if (Status written = WriteChunk(); !written.ok()) return written.error();
  auto update = db_->Prepare(
      "UPDATE traces SET source = ?1, origin = ?2, start_unix_ns = ?3, "
      "duration_ns = ?4, ios = ?5, bytes = ?6, complete = ?7, file_hash = ?8, "
      "meta_json = ?9 WHERE id = ?10");
  if (!update.ok()) return update.error();
  update->Bind(1, header.source)
      .Bind(2, header.origin)
      .Bind(3, header.start_unix_ns)
      .Bind(4, header.duration_ns)
      .Bind(5, static_cast<int64_t>(ios_))
      .Bind(6, static_cast<int64_t>(bytes_))
      .Bind(7, static_cast<int64_t>(header.complete ? 1 : 0))
      .Bind(8, file_hash)
      .Bind(9, TraceMetaJson(header))
      .Bind(10, id_);
  if (Status done = update->Run(); !done.ok()) return done.error();
  insert_chunk_.reset();
  if (Status committed = transaction_->Commit(); !committed.ok())
    return committed.error();
  transaction_.reset();
  return id_;
}

}  // namespace flashmark
