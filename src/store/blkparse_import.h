// Reads blkparse's text output (its default format: `blkparse -i DEV` or
// `blktrace -d DEV -o - | blkparse -i -`) as a block IO trace
// (model/block_io_trace.h). Each request issued to a driver (action D) is
// one IO: its device, sector and size, operation and flags from its RWBS
// field (R read, W write, D/E discard, N with a preflush F a flush; F
// after the operation FUA, S sync), issue time; the queue time of the bio
// that started it (Q, with its process and command name) and its
// completion time (C) when the trace holds them (a flush too, which
// blkparse prints without sectors: "D FN [cmd]", "C FN 0 [0]"). Bios
// merged into a
// request (their Q has no D of their own) are not IOs: a note counts them,
// as it counts requests queued but not issued, or issued but not completed,
// before the trace ended. The summary blkparse prints at the end, and
// events of other kinds (G, I, P, U, M, m...), are skipped.
//
// Errors (usage errors, nothing returned): "FILE:LINE: ..." for an event
// line that does not parse, and a file without any event (another tool's
// output, blkparse with a custom -f format). Pure; thread-safe.
#pragma once

#include "common/result.h"
#include "model/block_io_trace.h"
#include "store/import_common.h"

namespace flashmark {

Result<BlockIoTrace> ParseBlkparseText(const ImportFile& file);

}  // namespace flashmark
