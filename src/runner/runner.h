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
//
// With spec.verify, every write is stamped and every read checked against
// `generations` (what earlier runs wrote there; a fresh in-memory map when
// null), which the run updates; after a run that wrote, and was not
// interrupted, everything written is read back (verify_pass.h). Any bad
// block makes the run fail; the first ones are in RunResult::verify.
#pragma once

#include <memory>
#include <span>

#include "common/result.h"
#include "engine/io_engine.h"
#include "metrics/run_result.h"
#include "runner/run_observer.h"
#include "workload/generation_map.h"

namespace flashmark {

// `run` arrives with spec, command line and environment filled in; the
// runner fills the rest. The spec's seed is fixed here when not given.
Result<RunResult> ExecuteRun(RunResult run, std::span<const IoFile> files,
                             std::span<RunObserver* const> observers,
                             GenerationMap* generations = nullptr);

// An empty generation map for --verify runs of `spec` on `files`: verify
// blocks of BlockAlignment(spec.block_sizes) bytes (every IO covers whole
// ones), over each file's size. FitsGenerationMap: whether `map` is one.
std::unique_ptr<GenerationMap> NewGenerationMap(const JobSpec& spec,
                                                std::span<const IoFile> files);
bool FitsGenerationMap(const GenerationMap& map, const JobSpec& spec,
                       std::span<const IoFile> files);

}  // namespace flashmark
