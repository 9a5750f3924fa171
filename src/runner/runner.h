// ExecuteRun: runs one job to its end and returns everything measured.
//
// Starts one Worker thread per --threads on the opened files, then samples
// on the calling thread at absolute deadlines (start + k x interval on the
// monotonic clock, so intervals never drift), feeding each IntervalSample
// to the observers. Stops at the time limit, when every worker reached its
// share of an IO/byte limit, at the first IO error (unless
// --continue-on-error), or on SIGINT/SIGTERM (which the caller must have
// blocked with BlockInterruptSignals()). In-flight IO is drained before
// returning; what completes after the last boundary forms a final interval
// marked partial. Returns an Error only when the run could not start
// (engine setup); failures during the run are in RunResult::status.
#pragma once

#include <span>

#include "common/result.h"
#include "engine/io_engine.h"
#include "metrics/run_result.h"
#include "runner/run_observer.h"

namespace flashmark {

// `run` arrives with spec, command line and environment filled in; the
// runner fills the rest. The spec's seed is fixed here when not given.
Result<RunResult> ExecuteRun(RunResult run, std::span<const IoFile> files,
                             std::span<RunObserver* const> observers);

}  // namespace flashmark
