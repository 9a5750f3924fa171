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
// Errors (usage errors, nothing returned): "FILE:LINE: ..." for a file that
// is not an iolog, an unknown action, a garbled number, an IO on a file
// never added, times that go backwards (v3). Pure; thread-safe.
#pragma once

#include "common/result.h"
#include "model/block_io_trace.h"
#include "store/import_common.h"

namespace flashmark {

Result<BlockIoTrace> ParseFioIolog(const ImportFile& file);

}  // namespace flashmark
