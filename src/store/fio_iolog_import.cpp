#include "store/fio_iolog_import.h"

#include <fmt/format.h>

#include <charconv>
#include <map>
#include <string>
#include <vector>

namespace flashmark {
namespace {

std::optional<uint64_t> IologNumber(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

}  // namespace

Result<BlockIoTrace> ParseFioIolog(const ImportFile& file) {
  const std::vector<std::string_view> lines = SplitLines(file.text);
  size_t first = 0;
  while (first < lines.size() && TrimSpaces(lines[first]).empty()) ++first;
  const std::string_view header =
      first < lines.size() ? TrimSpaces(lines[first]) : std::string_view();
  int version = 0;
  if (header == "fio version 2 iolog") version = 2;
  if (header == "fio version 3 iolog") version = 3;
  if (version == 0) {
    return LineError(
        file, first + 1,
        fmt::format("not an fio iolog: it starts \"{}\", not \"fio version 2 "
                    "iolog\" or \"fio version 3 iolog\"",
                    header.substr(0, 60)),
        "fio writes one with --write_iolog=FILE");
  }
  BlockIoTrace trace;
  trace.source = "fio-iolog";
  trace.origin = file.name;
  std::map<std::string, uint16_t, std::less<>> files;
  int64_t now_ns = 0;  // v3: the line's time; v2: the waits so far
  for (size_t i = first + 1; i < lines.size(); ++i) {
    const std::vector<std::string_view> words = SplitBlanks(lines[i]);
    if (words.empty()) continue;
    size_t w = 0;
    if (version == 3) {
      const auto micros = IologNumber(words[0]);
      if (!micros || *micros > uint64_t{9'000'000'000'000'000}) {
        return LineError(
            file, i + 1,
            fmt::format("\"{}\" is not a time in microseconds",
                        words[0].substr(0, 40)),
            "a version 3 line is: TIME FILE ACTION [OFFSET LENGTH]");
      }
      const auto at = static_cast<int64_t>(*micros) * 1000;
      if (at < now_ns) {
        return LineError(file, i + 1,
                         fmt::format("time {} us is before the line above's "
                                     "({} us)",
                                     *micros, now_ns / 1000));
      }
      now_ns = at;
      w = 1;
    }
    if (words.size() < w + 2) {
      return LineError(file, i + 1, "a line needs a file and an action",
                       version == 3 ? "TIME FILE ACTION [OFFSET LENGTH]"
                                    : "FILE ACTION [OFFSET LENGTH]");
    }
    const std::string_view name = words[w];
    const std::string_view action = words[w + 1];
    const bool file_action =
        action == "add" || action == "open" || action == "close";
    if (file_action) {
      if (words.size() != w + 2) {
        return LineError(
            file, i + 1,
            fmt::format("\"{}\" takes no offset or length", action));
      }
      if (action == "add" && files.find(name) == files.end()) {
        if (files.size() >= 65535)
          return LineError(file, i + 1, "more than 65,535 files");
        files.emplace(std::string(name), static_cast<uint16_t>(files.size()));
        trace.devices.push_back({std::string(name), 0});
      }
      continue;
    }
    if (words.size() != w + 4) {
      return LineError(
          file, i + 1,
          fmt::format("\"{}\" needs an offset and a length", action));
    }
    const auto offset = IologNumber(words[w + 2]);
    const auto length = IologNumber(words[w + 3]);
    if (!offset || !length || *length > UINT32_MAX) {
      return LineError(
          file, i + 1,
          fmt::format("\"{} {}\" is not an offset and a length "
                      "in bytes",
                      words[w + 2].substr(0, 30), words[w + 3].substr(0, 30)));
    }
    if (action == "wait") {  // v2: microseconds to wait before going on
      if (*offset > uint64_t{9'000'000'000'000'000} / 1000)
        return LineError(file, i + 1, "a wait longer than fio could wait");
      now_ns += static_cast<int64_t>(*offset) * 1000;
      continue;
    }
    TracedIo io;
    if (action == "read") {
      io.op = TraceOp::kRead;
    } else if (action == "write") {
      io.op = TraceOp::kWrite;
    } else if (action == "sync" || action == "datasync") {
      io.op = TraceOp::kFlush;
    } else if (action == "trim") {
      io.op = TraceOp::kDiscard;
    } else {
      return LineError(
          file, i + 1,
          fmt::format("unknown action \"{}\"", action.substr(0, 30)),
          "fio's actions: add open close read write sync "
          "datasync trim wait");
    }
    const auto known = files.find(name);
    if (known == files.end()) {
      return LineError(file, i + 1,
                       fmt::format("an IO on \"{}\", which no \"add\" line "
                                   "named before",
                                   name.substr(0, 80)));
    }
    io.device = known->second;
    io.offset = *offset;
    io.length = static_cast<uint32_t>(*length);
    io.issue_ns = now_ns;
    if (io.op == TraceOp::kFlush) io.length = 0;
    trace.ios.push_back(io);
  }
  trace.duration_ns = now_ns;
  // An iolog names no clock time: it ended when the file was written.
  trace.start_unix_ns = file.modified_unix_ns - now_ns;
  if (version == 2) {
    trace.notes.push_back(
        "fio's iolog version 2 holds no times: IOs between its waits share "
        "one time (replay it --timing afap)");
  }
  if (trace.ios.empty()) {
    return LineError(file, lines.size(), "the iolog holds no IO",
                     "an iolog of a job that did IO has read, write, sync or "
                     "trim lines");
  }
  return trace;
}

}  // namespace flashmark
