#include "store/trace_file_import.h"

#include "store/blkparse_import.h"
#include "store/blktrace_binary.h"
#include "store/fio_iolog_import.h"
#include "store/import_lines.h"

namespace flashmark {
namespace {

template <typename Reader>
Status ReadEveryLine(ImportLineReader& lines, Reader& reader) {
  std::string_view line;
  for (;;) {
    auto next = lines.Next(line);
    if (!next.ok()) return next.error();
    if (!*next) return OkStatus();
    if (Status read = reader.Line(line, lines.line_number()); !read.ok())
      return read;
  }
}

}  // namespace

Result<ImportedTraceFile> StreamTraceFile(const std::string& path,
                                          TraceFileFormat format,
                                          TraceIoSink& sink) {
  auto lines = ImportLineReader::Open(path);
  if (!lines.ok()) return lines.error();
  ImportedTraceFile imported;
  if (format == TraceFileFormat::kFioIolog) {
    FioIologReader reader(lines->file(), sink);
    if (Status read = ReadEveryLine(*lines, reader); !read.ok())
      return read.error();
    if (Status ended = reader.End(lines->line_number()); !ended.ok())
      return ended.error();
    imported.header = reader.header();
  } else {
    BlkparseReader reader(lines->file(), sink);
    if (Status read = ReadEveryLine(*lines, reader); !read.ok())
      return read.error();
    if (Status ended = reader.End(); !ended.ok()) return ended.error();
    imported.header = reader.header();
  }
  imported.sha256 = lines->HashHex();
  return imported;
}

Result<ImportedTraceFile> StreamBlktraceRun(
    const std::vector<std::string>& paths, TraceIoSink& sink) {
  auto stream = BlktraceEventStream::Open(paths);
  if (!stream.ok()) return stream.error();
  auto header = JoinBlktraceEvents(*stream, sink);
  if (!header.ok()) return header.error();
  return ImportedTraceFile{std::move(*header), stream->HashHex()};
}

}  // namespace flashmark
