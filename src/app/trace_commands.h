// The block IO traces in the store: `flashmark import fio-iolog|blktrace
// FILE...` (store/fio_iolog_import.h, store/blkparse_import.h: each file
// one trace, all of it or none; a file imported before, by SHA-256, is
// refused unless --again), `flashmark list --traces` and `flashmark show
// --trace ID [--json]` (its summary, analysis/trace_summary.h). Bad files
// are usage errors naming the file and line; the other files are still
// imported, and the exit status is 2 when any was refused.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/store_commands.h"

namespace flashmark {

enum class TraceFormat { kFioIolog, kBlkparse };

int ExecuteImportTraces(TraceFormat format,
                        const std::vector<std::string>& files,
                        const std::optional<std::string>& db, bool again);
int ExecuteListTraces(const StoreCommandOptions& options);
int ExecuteShowTrace(const StoreCommandOptions& options);

}  // namespace flashmark
