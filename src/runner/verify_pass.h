// The read-back pass of --verify: after a run that wrote (and in
// `flashmark verify`), every block the generation map knows a generation
// for is read back, in file order, in chunks of about 1 MiB with plain
// pread() on the run's descriptors (O_DIRECT ones included: the buffer is
// page aligned and chunks are whole verify blocks), and checked as
// block_audit.h describes. Chunks without such a block are not read.
//
// Stops early, marking the pass incomplete, on an interrupt (SIGINT,
// SIGTERM or SIGHUP, taken with TakePendingInterrupt) or when a read
// fails; the failure is then in
// VerifyOutcome::read_back_note and the returned Error.
// Threading: runs on the calling thread with no IO in flight on the files.
#pragma once

#include <span>

#include "common/result.h"
#include "engine/io_engine.h"
#include "model/verify_result.h"
#include "runner/block_audit.h"
#include "workload/generation_map.h"

namespace flashmark {

// Fills the read_back fields of `outcome`; mismatches go to `log`.
Status RunVerifyPass(std::span<const IoFile> files, const GenerationMap& map,
                     MismatchLog& log, VerifyOutcome& outcome);

}  // namespace flashmark
