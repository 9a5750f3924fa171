// Imports the output of `sysbench fileio ... run` (sysbench 1.0.x) as one
// run: the option header (threads, file count and size, block size, IO
// mode, extra flags, test mode, fsync settings), the --report-interval
// lines and the final summary.
//
// Interval lines give MiB/s per direction, fsyncs/s and one latency
// percentile: bytes per interval are MiB/s x 1 MiB x the interval, IOs are
// bytes / block size (sysbench fileio uses one block size), and the
// tool's per-interval percentile is kept as a ToolSeries (no histogram
// exists: the run's intervals carry none, and no percentile is invented).
// What the summary counts beyond the interval lines (reads/s x total time,
// ...) becomes a partial last interval, so totals equal sysbench's; output
// without interval lines becomes one interval over the whole run. Every
// summary figure is kept as sysbench printed it. sysbench prints no clock
// time: the run ends at the file's modification time.
//
// Errors (usage errors, nothing returned): "FILE:LINE: ..." for another
// tool's output, an unknown sysbench version (only 1.0.x is read), a
// garbled line or a truncated file. Pure; thread-safe.
#pragma once

#include "common/result.h"
#include "store/import_common.h"
#include "store/run_store.h"

namespace flashmark {

// One run, labelled with the file's name (without directory and
// extension), source "sysbench", source_hash the SHA-256 of the text.
Result<StoredRun> ParseSysbenchOutput(const ImportFile& file);

}  // namespace flashmark
