#include "store/blktrace_binary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <tuple>

#include "store/blkparse_import.h"

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

class RecordReader {
 public:
  RecordReader(const std::string& bytes, bool swap)
      : bytes_(bytes), swap_(swap) {}
  template <typename T>
  T At(size_t offset) const {
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof value);
    return swap_ ? Reversed(value) : value;
  }

 private:
  const std::string& bytes_;
  bool swap_;
};

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

Status DecodeFile(const ImportFile& file, BlktraceEvents& out) {
  const std::string& bytes = file.text;
  const auto bad = [&](size_t offset, const std::string& what) {
    return UsageError(
        fmt::format("{}: byte {}: {}", file.name, offset, what),
        "give blktrace's binary files (DEV.blktrace.N) or blkparse's text");
  };
  if (!LooksLikeBlktraceBinary(bytes)) {
    return bad(0, "not a blktrace binary file (no blk_io_trace magic)");
  }
  uint32_t first = 0;
  std::memcpy(&first, bytes.data(), 4);
  const bool swap = (first & 0xffffff00u) != kBlktraceMagic;
  const RecordReader reader(bytes, swap);
  const std::optional<uint32_t> file_cpu = CpuOfName(file.name);
  size_t offset = 0;
  while (offset < bytes.size()) {
    if (bytes.size() - offset < kBlktraceRecordBytes) {
      return bad(offset,
                 fmt::format("a record cut short ({} of {} bytes): "
                             "the file is truncated",
                             bytes.size() - offset, kBlktraceRecordBytes));
    }
    const uint32_t magic = reader.At<uint32_t>(offset);
    if ((magic & 0xffffff00u) != kBlktraceMagic) {
      return bad(offset,
                 fmt::format("no blk_io_trace magic (0x{:08x})", magic));
    }
    if ((magic & 0xffu) != kBlktraceVersion) {
      return bad(offset, fmt::format("record version {}, flashmark reads 7",
                                     magic & 0xffu));
    }
    const uint16_t pdu_bytes = reader.At<uint16_t>(offset + 46);
    if (bytes.size() - offset - kBlktraceRecordBytes < pdu_bytes) {
      return bad(offset, fmt::format("a payload of {} bytes runs past the end: "
                                     "the file is truncated",
                                     pdu_bytes));
    }
    const uint32_t action = reader.At<uint32_t>(offset + 28);
    const uint32_t category = action >> kCategoryShift;
    const uint32_t pid = reader.At<uint32_t>(offset + 32);
    const uint32_t cpu = reader.At<uint32_t>(offset + 40);
    if (file_cpu && cpu != *file_cpu) {
      return bad(offset, fmt::format("a record of CPU {} in the file of CPU {}",
                                     cpu, *file_cpu));
    }
    const size_t pdu = offset + kBlktraceRecordBytes;
    if (category & kCatNotify) {
      if ((action & 0xffffu) == kNotifyProcess && pid != 0) {
        std::string name(bytes.data() + pdu, pdu_bytes);
        name.resize(std::strlen(name.c_str()));
        out.processes[pid] = name;
      }
    } else {
      BlktraceEvent event;
      event.sequence = reader.At<uint32_t>(offset + 4);
      event.time_ns = static_cast<int64_t>(reader.At<uint64_t>(offset + 8) &
                                           0x7fffffffffffffffu);
      event.sector = reader.At<uint64_t>(offset + 16);
      const uint32_t data_bytes = reader.At<uint32_t>(offset + 24);
      event.sectors = data_bytes >> 9;
      event.action = ActionLetters(action & 0xffffu);
      event.rwbs = Rwbs(category, data_bytes);
      event.pid = pid;
      event.device = reader.At<uint32_t>(offset + 36);
      event.cpu = cpu;
      event.error = reader.At<uint16_t>(offset + 44);
      out.events.push_back(std::move(event));
    }
    offset = pdu + pdu_bytes;
  }
  return OkStatus();
}

}  // namespace

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

Result<BlktraceEvents> DecodeBlktraceBinary(
    const std::vector<ImportFile>& files) {
  BlktraceEvents out;
  for (const ImportFile& file : files) {
    if (Status decoded = DecodeFile(file, out); !decoded.ok()) {
      return decoded.error();
    }
  }
  std::stable_sort(out.events.begin(), out.events.end(),
                   [](const BlktraceEvent& a, const BlktraceEvent& b) {
                     return std::tie(a.time_ns, a.cpu, a.sequence) <
                            std::tie(b.time_ns, b.cpu, b.sequence);
                   });
  return out;
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

Result<BlockIoTrace> ParseBlktraceBinary(const std::vector<ImportFile>& files) {
  auto decoded = DecodeBlktraceBinary(files);
  if (!decoded.ok()) return decoded.error();
  // blkparse's default text of each event, read by the one joiner.
  ImportFile text;
  text.name = files.empty() ? "" : files.front().name;
  text.modified_unix_ns = files.empty() ? 0 : files.front().modified_unix_ns;
  const int64_t genesis =
      decoded->events.empty() ? 0 : decoded->events.front().time_ns;
  for (const BlktraceEvent& e : decoded->events) {
    if (e.action.empty()) continue;
    const int64_t ns = e.time_ns - genesis;
    const auto name = decoded->processes.find(e.pid);
    const std::string last = e.action == "C" ? std::to_string(e.error)
                             : name != decoded->processes.end() ? name->second
                                                                : "(null)";
    std::string where;
    if (e.sectors > 0) {
      where = fmt::format("{} + {} ", e.sector, e.sectors);
    } else if (e.action == "C") {
      where = fmt::format("{} ", e.sector);
    }
    text.text += fmt::format("{} {} {} {}.{:09} {} {} {} {}[{}]\n",
                             BlktraceDeviceName(e.device), e.cpu, e.sequence,
                             ns / 1'000'000'000, ns % 1'000'000'000, e.pid,
                             e.action, e.rwbs, where, last);
  }
  auto trace = ParseBlkparseText(text);
  if (!trace.ok()) return trace.error();
  for (const auto& [pid, command] : decoded->processes) {
    trace->processes.try_emplace(pid, command);
  }
  std::string origin;
  for (const ImportFile& file : files) {
    origin += (origin.empty() ? "" : " ") + file.name;
  }
  trace->origin = origin;
  return trace;
}

}  // namespace flashmark
