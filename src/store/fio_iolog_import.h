// Reads fio's iolog (what `fio --write_iolog=FILE` writes, and what
// `--read_iolog` replays), versions 2 and 3, as a block IO trace
// (model/block_io_trace.h): each `read`, `write`, `sync`/`datasync`
// (a flush) and `trim` (a discard) line one IO on its file, each file
// (`add`) one device of the trace. Version 3 lines start with the time in
// microseconds since fio started logging: the IO's issue time. Version 2
// holds no times (only `wait` lines, in microseconds, which add up to the
// times of the IOs after them): the trace says so in a note. Completion
// and queue times are not in an iolog (-1).
//
// Streaming: FioIologReader takes the file line by line and hands each
// IO to a sink as soon as it is read (an iolog is in time order: fio
// writes each line as it issues the IO), so an iolog of any length is
// imported in constant memory (the files' names). Lines of version 3
// whose time goes backwards are refused, not reordered.
//
// Errors (usage errors, nothing returned): "FILE:LINE: ..." for a file that
// is not an iolog, an unknown action, a garbled number, an IO on a file
// never added, times that go backwards (v3); an Error of the sink ends the
// reading with that Error. Pure; thread-safe.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "common/result.h"
#include "model/block_io_trace.h"
#include "model/trace_io_stream.h"
#include "store/import_common.h"

namespace flashmark {

class FioIologReader {
 public:
  // `file`: its name and modification time (its text is not read).
  // Borrows both, which must outlive the reader.
  FioIologReader(const ImportFile& file, TraceIoSink& sink)
      : file_(file), sink_(sink) {}
  // Line `number` (from 1) of the file, without its line end.
  Status Line(std::string_view line, size_t number);
  // After the last of `lines` lines: completes the header (an Error when
  // the file held no IO, or was not an iolog).
  Status End(size_t lines);
  // The trace without its IOs (complete after End).
  const BlockIoTrace& header() const { return header_; }

 private:
  const ImportFile& file_;
  TraceIoSink& sink_;
  BlockIoTrace header_;
  int version_ = 0;
  size_t ios_ = 0;
  std::map<std::string, uint16_t, std::less<>> files_;
  int64_t now_ns_ = 0;  // v3: the line's time; v2: the waits so far
};

// The whole file's text at once (tests, the fuzzer): the trace with its IOs.
Result<BlockIoTrace> ParseFioIolog(const ImportFile& file);

}  // namespace flashmark
