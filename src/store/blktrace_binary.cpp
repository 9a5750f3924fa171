#include "store/blktrace_binary.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <optional>
#include <tuple>

#include "config/campaign_hash.h"
#include "store/blkparse_import.h"
#include "store/import_lines.h"

namespace flashmark {
namespace {

// include/uapi/linux/blktrace_api.h
constexpr uint32_t kBlktraceMagic = 0x65617400;
constexpr uint32_t kBlktraceVersion = 0x07;
constexpr size_t kBlktraceRecordBytes = 48;
constexpr int kCategoryShift = 16;
enum BlktraceCategory : uint32_t {
  kCatWrite = 1u << 1,
  kCatFlush = 1u << 2,
  kCatSync = 1u << 3,
  kCatNotify = 1u << 10,
  kCatAhead = 1u << 11,
  kCatMeta = 1u << 12,
  kCatDiscard = 1u << 13,
  kCatFua = 1u << 15,
};
constexpr uint32_t kNotifyProcess = 0;

// blkparse's letters for __BLK_TA_QUEUE (1) .. __BLK_TA_REMAP (15).
const char* ActionLetters(uint32_t code) {
  static const char* const kLetters[] = {"",  "Q", "M", "F", "G", "S",
                                         "R", "D", "C", "P", "U", "UT",
                                         "I", "X", "B", "A"};
  return code < std::size(kLetters) ? kLetters[code] : "";
}

// blkparse's fill_rwbs().
std::string Rwbs(uint32_t category, uint32_t bytes) {
  std::string rwbs;
  if (category & kCatFlush) rwbs += 'F';
  if (category & kCatDiscard) {
    rwbs += 'D';
  } else if (category & kCatWrite) {
    rwbs += 'W';
  } else {
    rwbs += bytes != 0 ? 'R' : 'N';
  }
  if (category & kCatFua) rwbs += 'F';
  if (category & kCatAhead) rwbs += 'A';
  if (category & kCatSync) rwbs += 'S';
  if (category & kCatMeta) rwbs += 'M';
  return rwbs;
}

// Byte order reversed (std::byteswap is C++23).
uint16_t Reversed(uint16_t v) { return __builtin_bswap16(v); }
uint32_t Reversed(uint32_t v) { return __builtin_bswap32(v); }
uint64_t Reversed(uint64_t v) { return __builtin_bswap64(v); }

// The CPU a file of blktrace's own naming holds: N of "X.blktrace.N".
std::optional<uint32_t> CpuOfName(const std::string& name) {
  const size_t at = name.rfind(".blktrace.");
  if (at == std::string::npos) return std::nullopt;
  const std::string digits = name.substr(at + 10);
  if (digits.empty() || digits.size() > 4 ||
      !std::all_of(digits.begin(), digits.end(),
                   [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return static_cast<uint32_t>(std::stoul(digits));
}

}  // namespace

// One file of a stream: its records decoded one at a time from a buffer.
struct BlktraceEventStream::Cursor {
  std::string name;
  std::optional<uint32_t> cpu;  // the CPU its name says it holds
  int fd = -1;                  // -1: `memory` holds the whole file
  std::string_view memory;
  std::vector<char> buffer;
  size_t begin = 0, end = 0;  // unread buffered bytes: [begin, end)
  bool eof = false;
  uint64_t offset = 0;  // the file offset of the first unread byte
  bool swap = false;
  Sha256 hash;
  BlktraceEvent head;  // the next event, while the cursor is in the heap

  Cursor() = default;
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;
  ~Cursor() {
    if (fd >= 0) close(fd);
  }

  Error Bad(uint64_t at, const std::string& what) const {
    return UsageError(
        fmt::format("{}: byte {}: {}", name, at, what),
        "give blktrace's binary files (DEV.blktrace.N) or blkparse's text");
  }
  // At least `bytes` unread bytes, fewer only at the end of the file.
  Result<std::string_view> Peek(size_t bytes) {
    if (fd < 0) return memory.substr(static_cast<size_t>(offset));
    while (end - begin < bytes && !eof) {
      if (begin > 0) {
        std::memmove(buffer.data(), buffer.data() + begin, end - begin);
        end -= begin;
        begin = 0;
      }
      const ssize_t n = read(fd, buffer.data() + end, buffer.size() - end);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        return UsageError(fmt::format("{}: cannot read the file: {}", name,
                                      std::strerror(errno)));
      }
      if (n == 0) eof = true;
      hash.Update(
          std::string_view(buffer.data() + end, static_cast<size_t>(n)));
      end += static_cast<size_t>(n);
    }
    return std::string_view(buffer.data() + begin, end - begin);
  }
  void Consume(size_t bytes) {
    offset += bytes;
    if (fd >= 0) begin += bytes;
  }
  template <typename T>
  T At(std::string_view record, size_t at) const {
    T value;
    std::memcpy(&value, record.data() + at, sizeof value);
    return swap ? Reversed(value) : value;
  }

  // The next event into `head` (notify records on the way go to
  // `processes`); false at the end of the file.
  Result<bool> Advance(std::map<uint32_t, std::string>& processes) {
    for (;;) {
      auto unread = Peek(kBlktraceRecordBytes);
      if (!unread.ok()) return unread.error();
      if (offset == 0 && !LooksLikeBlktraceBinary(*unread)) {
        return Bad(0, "not a blktrace binary file (no blk_io_trace magic)");
      }
      if (unread->empty()) return false;
      if (unread->size() < kBlktraceRecordBytes) {
        return Bad(offset, fmt::format("a record cut short ({} of {} bytes): "
                                       "the file is truncated",
                                       unread->size(), kBlktraceRecordBytes));
      }
      if (offset == 0) {
        uint32_t first = 0;
        std::memcpy(&first, unread->data(), 4);
        swap = (first & 0xffffff00u) != kBlktraceMagic;
      }
      const uint32_t magic = At<uint32_t>(*unread, 0);
      if ((magic & 0xffffff00u) != kBlktraceMagic) {
        return Bad(offset,
                   fmt::format("no blk_io_trace magic (0x{:08x})", magic));
      }
      if ((magic & 0xffu) != kBlktraceVersion) {
        return Bad(offset, fmt::format("record version {}, flashmark reads 7",
                                       magic & 0xffu));
      }
      const uint16_t pdu_bytes = At<uint16_t>(*unread, 46);
      const size_t record_bytes = kBlktraceRecordBytes + pdu_bytes;
      unread = Peek(record_bytes);
      if (!unread.ok()) return unread.error();
      if (unread->size() < record_bytes) {
        return Bad(offset,
                   fmt::format("a payload of {} bytes runs past the end: "
                               "the file is truncated",
                               pdu_bytes));
      }
      const std::string_view record = unread->substr(0, record_bytes);
      const uint32_t action = At<uint32_t>(record, 28);
      const uint32_t category = action >> kCategoryShift;
      const uint32_t pid = At<uint32_t>(record, 32);
      const uint32_t record_cpu = At<uint32_t>(record, 40);
      if (cpu && record_cpu != *cpu) {
        return Bad(offset,
                   fmt::format("a record of CPU {} in the file of CPU {}",
                               record_cpu, *cpu));
      }
      Consume(record_bytes);
      if (category & kCatNotify) {
        if ((action & 0xffffu) == kNotifyProcess && pid != 0) {
          const std::string_view payload = record.substr(kBlktraceRecordBytes);
          processes[pid] = std::string(payload.substr(0, payload.find('\0')));
        }
        continue;
      }
      head.sequence = At<uint32_t>(record, 4);
      head.time_ns =
          static_cast<int64_t>(At<uint64_t>(record, 8) & 0x7fffffffffffffffu);
      head.sector = At<uint64_t>(record, 16);
      const uint32_t data_bytes = At<uint32_t>(record, 24);
      head.sectors = data_bytes >> 9;
      head.action = ActionLetters(action & 0xffffu);
      head.rwbs = Rwbs(category, data_bytes);
      head.pid = pid;
      head.device = At<uint32_t>(record, 36);
      head.cpu = record_cpu;
      head.error = At<uint16_t>(record, 44);
      return true;
    }
  }
};

bool LooksLikeBlktraceBinary(std::string_view bytes) {
  if (bytes.size() < 4) return false;
  uint32_t word = 0;
  std::memcpy(&word, bytes.data(), 4);
  return (word & 0xffffff00u) == kBlktraceMagic ||
         (Reversed(word) & 0xffffff00u) == kBlktraceMagic;
}

std::string BlktraceDeviceName(uint32_t device) {
  return fmt::format("{},{}", device >> 20, device & 0xfffffu);
}

std::vector<std::string> BlktraceCpuFiles(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::string stem = path;
  if (CpuOfName(fs::path(path).filename().string())) {
    stem = path.substr(0, path.rfind(".blktrace."));
  } else if (fs::exists(path, error) ||
             !fs::exists(path + ".blktrace.0", error)) {
    return {};
  }
  const fs::path directory = fs::path(stem).parent_path();
  const std::string prefix = fs::path(stem).filename().string() + ".blktrace.";
  std::vector<std::pair<uint32_t, std::string>> found;
  for (const auto& entry : fs::directory_iterator(
           directory.empty() ? fs::path(".") : directory, error)) {
    const std::string name = entry.path().filename().string();
    const std::optional<uint32_t> cpu = CpuOfName(name);
    if (cpu && name.compare(0, prefix.size(), prefix) == 0 &&
        name.size() > prefix.size() &&
        name.find('.', prefix.size()) == std::string::npos) {
      found.emplace_back(*cpu, (directory / name).string());
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> files;
  for (auto& [cpu, file] : found) files.push_back(std::move(file));
  return files;
}

Result<BlktraceEventStream> BlktraceEventStream::Open(
    const std::vector<std::string>& paths) {
  BlktraceEventStream stream;
  for (const std::string& path : paths) {
    ImportFile file;
    auto fd = OpenImportFile(path, file);
    if (!fd.ok()) return fd.error();
    auto cursor = std::make_unique<Cursor>();
    cursor->fd = *fd;
    cursor->buffer.resize(size_t{256} << 10);
    if (stream.cursors_.empty()) stream.first_file_ = file;
    cursor->name = file.name;
    stream.cursors_.push_back(std::move(cursor));
  }
  return stream;
}

BlktraceEventStream BlktraceEventStream::OfMemory(
    const std::vector<ImportFile>& files) {
  BlktraceEventStream stream;
  for (const ImportFile& file : files) {
    auto cursor = std::make_unique<Cursor>();
    cursor->memory = file.text;
    cursor->hash.Update(file.text);
    cursor->name = file.name;
    if (stream.cursors_.empty()) {
      stream.first_file_.name = file.name;
      stream.first_file_.modified_unix_ns = file.modified_unix_ns;
    }
    stream.cursors_.push_back(std::move(cursor));
  }
  return stream;
}

BlktraceEventStream::BlktraceEventStream(BlktraceEventStream&&) noexcept =
    default;
BlktraceEventStream& BlktraceEventStream::operator=(
    BlktraceEventStream&&) noexcept = default;
BlktraceEventStream::~BlktraceEventStream() = default;

namespace {

// For std::push_heap/pop_heap (a max-heap): true when a's event comes
// after b's, so that the earliest is on top.
bool Later(const BlktraceEvent& a, size_t a_order, const BlktraceEvent& b,
           size_t b_order) {
  return std::tie(a.time_ns, a.cpu, a.sequence, a_order) >
         std::tie(b.time_ns, b.cpu, b.sequence, b_order);
}

}  // namespace

Status BlktraceEventStream::Prime() {
  primed_ = true;
  for (size_t i = 0; i < cursors_.size(); ++i) {
    Cursor& cursor = *cursors_[i];
    cursor.cpu =
        CpuOfName(std::filesystem::path(cursor.name).filename().string());
    auto more = cursor.Advance(processes_);
    if (!more.ok()) return more.error();
    if (*more) heads_.push_back(i);
  }
  std::make_heap(heads_.begin(), heads_.end(), [this](size_t a, size_t b) {
    return Later(cursors_[a]->head, a, cursors_[b]->head, b);
  });
  return OkStatus();
}

Result<bool> BlktraceEventStream::Next(BlktraceEvent& event) {
  if (!primed_) {
    if (Status primed = Prime(); !primed.ok()) return primed.error();
  }
  if (heads_.empty()) return false;
  const auto later = [this](size_t a, size_t b) {
    return Later(cursors_[a]->head, a, cursors_[b]->head, b);
  };
  std::pop_heap(heads_.begin(), heads_.end(), later);
  Cursor& cursor = *cursors_[heads_.back()];
  event = cursor.head;
  auto more = cursor.Advance(processes_);
  if (!more.ok()) return more.error();
  if (*more) {
    std::push_heap(heads_.begin(), heads_.end(), later);
  } else {
    heads_.pop_back();
  }
  return true;
}

std::string BlktraceEventStream::names() const {
  std::string names;
  for (const auto& cursor : cursors_) {
    names += (names.empty() ? "" : " ") + cursor->name;
  }
  return names;
}

std::string BlktraceEventStream::HashHex() const {
  if (cursors_.size() == 1) return cursors_.front()->hash.Hex();
  Sha256 digests;
  for (const auto& cursor : cursors_) digests.Update(cursor->hash.Hex() + "\n");
  return digests.Hex();
}

Result<BlockIoTrace> JoinBlktraceEvents(BlktraceEventStream& stream,
                                        TraceIoSink& sink) {
  // blkparse's default text of each event, read by the one joiner.
  BlkparseReader reader(stream.first_file(), sink);
  BlktraceEvent e;
  std::optional<int64_t> genesis;
  std::string line;
  size_t number = 0;
  for (;;) {
    auto next = stream.Next(e);
    if (!next.ok()) return next.error();
    if (!*next) break;
    if (!genesis) genesis = e.time_ns;
    if (e.action.empty()) continue;
    const int64_t ns = e.time_ns - *genesis;
    const auto name = stream.processes().find(e.pid);
    line.clear();
    auto out = std::back_inserter(line);
    fmt::format_to(out, "{} {} {} {}.{:09} {} {} {} ",
                   BlktraceDeviceName(e.device), e.cpu, e.sequence,
                   ns / 1'000'000'000, ns % 1'000'000'000, e.pid, e.action,
                   e.rwbs);
    if (e.sectors > 0) {
      fmt::format_to(out, "{} + {} ", e.sector, e.sectors);
    } else if (e.action == "C") {
      fmt::format_to(out, "{} ", e.sector);
    }
    if (e.action == "C") {
      fmt::format_to(out, "[{}]", e.error);
    } else {
      fmt::format_to(
          out, "[{}]",
          name != stream.processes().end() ? name->second : "(null)");
    }
    if (Status read = reader.Line(line, ++number); !read.ok())
      return read.error();
  }
  if (Status ended = reader.End(); !ended.ok()) return ended.error();
  BlockIoTrace trace = reader.header();
  for (const auto& [pid, command] : stream.processes()) {
    trace.processes.try_emplace(pid, command);
  }
  trace.origin = stream.names();
  return trace;
}

Result<BlockIoTrace> ParseBlktraceBinary(const std::vector<ImportFile>& files) {
  std::vector<TracedIo> ios;
  TraceVectorSink sink(ios);
  BlktraceEventStream stream = BlktraceEventStream::OfMemory(files);
  auto trace = JoinBlktraceEvents(stream, sink);
  if (!trace.ok()) return trace.error();
  trace->ios = std::move(ios);
  return trace;
}

}  // namespace flashmark
