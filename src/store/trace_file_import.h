// Imports a block IO trace file of any length without holding it: a text
// file is read line by line (store/import_lines.h) by the format's reader
// (store/fio_iolog_import.h, store/blkparse_import.h), each IO going to
// `sink` (a TraceWriter, a summary, nothing: a first pass that checks the
// file and hashes it) as soon as it is known. Returns the trace's header
// and the file's SHA-256. Errors: those of the readers and the sink.
// Threading: the caller's; memory: the readers' bounds and a 1 MiB buffer.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "model/block_io_trace.h"
#include "model/trace_io_stream.h"

namespace flashmark {

enum class TraceFileFormat { kFioIolog, kBlkparse };

struct ImportedTraceFile {
  BlockIoTrace header;  // without IOs
  std::string sha256;
};

Result<ImportedTraceFile> StreamTraceFile(const std::string& path,
                                          TraceFileFormat format,
                                          TraceIoSink& sink);

// blktrace's binary files of one run (store/blktrace_binary.h), read
// record by record through a buffer per file, the same way: the header
// and the files' digest (BlktraceEventStream::HashHex).
Result<ImportedTraceFile> StreamBlktraceRun(
    const std::vector<std::string>& paths, TraceIoSink& sink);

}  // namespace flashmark
