#include "system/block_event_reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

extern "C" {
#include <kbuffer.h>
}

namespace flashmark {
namespace {

// The bytes one read of trace_pipe_raw gives at most: a sub-buffer
// (buffer_subbuf_size_kb where the kernel has it, else a page).
size_t SubbufferBytes(const std::filesystem::path& instance_dir) {
  size_t bytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::ifstream file(instance_dir / "buffer_subbuf_size_kb");
  size_t kib = 0;
  if (file >> kib && kib > 0) bytes = std::max(bytes, kib * 1024);
  return bytes;
}

// The end of the furthest field `format` reads: a shorter record is not
// decoded.
int RecordBytesNeeded(const BlockEventFormat& f, int type_offset) {
  int end = std::max({type_offset + 2, f.dev + 4, f.sector + 8, f.nr_sector + 4,
                      f.pid >= 0 ? f.pid + 4 : 0});
  if (f.rwbs >= 0) end = std::max(end, f.rwbs + f.rwbs_size);
  if (f.comm >= 0) end = std::max(end, f.comm + f.comm_size);
  return end;
}

}  // namespace

Result<std::unique_ptr<BlockEventReader>> BlockEventReader::Open(
    const std::filesystem::path& instance_dir,
    std::span<const BlockEventFormat> formats, int type_offset) {
  std::unique_ptr<BlockEventReader> reader(new BlockEventReader());
  reader->formats_.assign(formats.begin(), formats.end());
  reader->type_offset_ = type_offset;
  for (const BlockEventFormat& format : formats) {
    reader->needed_.push_back(RecordBytesNeeded(format, type_offset));
  }
  const long cpus = std::max(1L, sysconf(_SC_NPROCESSORS_CONF));
  for (long cpu = 0; cpu < cpus; ++cpu) {
    const std::filesystem::path path =
        instance_dir / "per_cpu" / fmt::format("cpu{}", cpu) / "trace_pipe_raw";
    std::error_code error;
    if (!std::filesystem::exists(path, error)) continue;  // not possible
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      return RuntimeError(fmt::format("cannot open {}: {}", path.string(),
                                      std::strerror(errno)));
    }
    reader->fds_.push_back(fd);
  }
  if (reader->fds_.empty()) {
    return RuntimeError(
        fmt::format("no per-CPU trace buffer under {}", instance_dir.string()));
  }
  reader->subbuffer_.resize(SubbufferBytes(instance_dir));
  reader->kbuf_ =
      kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
  if (reader->kbuf_ == nullptr) {
    return RuntimeError("cannot allocate a trace sub-buffer reader");
  }
  return reader;
}

BlockEventReader::~BlockEventReader() {
  for (const int fd : fds_) close(fd);
  if (kbuf_ != nullptr) kbuffer_free(kbuf_);
}

void BlockEventReader::Decode(const unsigned char* data, int size,
                              uint64_t ticks,
                              std::vector<BlockEvent>& out) const {
  if (size < type_offset_ + 2) return;
  uint16_t type = 0;
  std::memcpy(&type, data + type_offset_, sizeof(type));
  for (size_t k = 0; k < formats_.size(); ++k) {
    const BlockEventFormat& f = formats_[k];
    if (f.id != type) continue;
    if (size < needed_[k]) return;
    BlockEvent& event = out.emplace_back();
    event.kind = f.kind;
    event.ticks = ticks;
    std::memcpy(&event.dev, data + f.dev, sizeof(event.dev));
    std::memcpy(&event.sector, data + f.sector, sizeof(event.sector));
    std::memcpy(&event.sectors, data + f.nr_sector, sizeof(event.sectors));
    if (f.pid >= 0) std::memcpy(&event.pid, data + f.pid, sizeof(event.pid));
    // Fixed arrays of the record, NUL-padded; kept NUL-ended here.
    const auto text = [data](int offset, int length, std::span<char> to) {
      if (offset < 0) return;
      const size_t n = std::min(static_cast<size_t>(length), to.size() - 1);
      std::memcpy(to.data(), data + offset, n);
      to[n] = '\0';
    };
    text(f.rwbs, f.rwbs_size, event.rwbs);
    text(f.comm, f.comm_size, event.comm);
    return;
  }
}

size_t BlockEventReader::Read(size_t cpu, std::vector<BlockEvent>& out) {
  const size_t before = out.size();
  for (;;) {
    const ssize_t got = read(fds_[cpu], subbuffer_.data(), subbuffer_.size());
    if (got <= 0) break;  // EAGAIN: nothing more now
    if (kbuffer_load_subbuffer(kbuf_, subbuffer_.data()) < 0) break;
    unsigned long long ts = 0;
    for (void* record = kbuffer_read_event(kbuf_, &ts); record != nullptr;
         record = kbuffer_next_event(kbuf_, &ts)) {
      Decode(static_cast<const unsigned char*>(record),
             kbuffer_event_size(kbuf_), ts, out);
    }
  }
  return out.size() - before;
}

}  // namespace flashmark
