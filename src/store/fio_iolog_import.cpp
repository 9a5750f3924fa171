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

Status FioIologReader::Line(std::string_view text, size_t number) {
  const ImportFile& file = file_;
  const size_t i = number - 1;
  if (version_ == 0) {
    const std::string_view header = TrimSpaces(text);
    if (header.empty()) return OkStatus();
    if (header == "fio version 2 iolog") version_ = 2;
    if (header == "fio version 3 iolog") version_ = 3;
    if (version_ == 0) {
      return LineError(
          file, number,
          fmt::format("not an fio iolog: it starts \"{}\", not \"fio version "
                      "2 iolog\" or \"fio version 3 iolog\"",
                      header.substr(0, 60)),
          "fio writes one with --write_iolog=FILE");
    }
    header_.source = "fio-iolog";
    header_.origin = file.name;
    return OkStatus();
  }
  const int version = version_;
  int64_t& now_ns = now_ns_;
  const std::vector<std::string_view> words = SplitBlanks(text);
  if (words.empty()) return OkStatus();
  size_t w = 0;
  if (version == 3) {
    const auto micros = IologNumber(words[0]);
    if (!micros || *micros > uint64_t{9'000'000'000'000'000}) {
      return LineError(file, i + 1,
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
      return LineError(file, i + 1,
                       fmt::format("\"{}\" takes no offset or length", action));
    }
    if (action == "add" && files_.find(name) == files_.end()) {
      if (files_.size() >= 65535)
        return LineError(file, i + 1, "more than 65,535 files");
      files_.emplace(std::string(name), static_cast<uint16_t>(files_.size()));
      header_.devices.push_back({std::string(name), 0});
    }
    return OkStatus();
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
    return OkStatus();
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
    return LineError(file, i + 1,
                     fmt::format("unknown action \"{}\"", action.substr(0, 30)),
                     "fio's actions: add open close read write sync "
                     "datasync trim wait");
  }
  const auto known = files_.find(name);
  if (known == files_.end()) {
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
  ++ios_;
  return sink_.Append(io);
}

Status FioIologReader::End(size_t lines) {
  if (version_ == 0) {
    return LineError(file_, lines + (lines == 0 ? 1 : 0),
                     "not an fio iolog: it is empty",
                     "fio writes one with --write_iolog=FILE");
  }
  header_.duration_ns = now_ns_;
  // An iolog names no clock time: it ended when the file was written.
  header_.start_unix_ns = file_.modified_unix_ns - now_ns_;
  if (version_ == 2) {
    header_.notes.push_back(
        "fio's iolog version 2 holds no times: IOs between its waits share "
        "one time (replay it --timing afap)");
  }
  if (ios_ == 0) {
    return LineError(file_, lines, "the iolog holds no IO",
                     "an iolog of a job that did IO has read, write, sync or "
                     "trim lines");
  }
  return OkStatus();
}

Result<BlockIoTrace> ParseFioIolog(const ImportFile& file) {
  std::vector<TracedIo> ios;
  TraceVectorSink sink(ios);
  FioIologReader reader(file, sink);
  const std::vector<std::string_view> lines = SplitLines(file.text);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (Status read = reader.Line(lines[i], i + 1); !read.ok())
      return read.error();
  }
  if (Status ended = reader.End(lines.size()); !ended.ok())
    return ended.error();
  BlockIoTrace trace = reader.header();
  trace.ios = std::move(ios);
  return trace;
}

}  // namespace flashmark
