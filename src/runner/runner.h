// ExecuteRun: runs one job to its end and returns everything measured.
//
// Threads: one Worker per --threads on the opened files; the calling
// thread samples (runner/sampling_loop.h: absolute deadlines start + k x
// interval, each sample stamped with the true instants of its snapshots,
// a stall merged into one sample that says how many intervals it spans)
// and asks the stop conditions; one output thread (runner/output_thread.h)
// runs the observers, so a slow observer delays output, never sampling.
// Stops at the time limit, when every worker reached its share of an
// IO/byte limit, at the first IO error (unless --continue-on-error), when
// a StopCondition says so (status ok), or on an interrupt (SIGINT, SIGTERM
// or SIGHUP, which the caller must have blocked with
// BlockInterruptSignals(); status interrupted). In-flight IO is drained
// before returning; what completes after the last boundary forms a final
// interval marked partial. Every interval has reached every observer, and
// OnEnd has returned, before ExecuteRun returns. Returns an Error only
// when the run could not start (engine setup); failures during the run
// are in RunResult::status.
//
// With spec.verify, every write is stamped and every read checked against
// `generations` (what earlier runs wrote there; a fresh in-memory map when
// null), which the run updates; after a run that wrote, and was not
// interrupted, everything written is read back (verify_pass.h). Any bad
// block makes the run fail; the first ones are in RunResult::verify.
#pragma once

#include <functional>
#include <memory>
#include <span>

#include "common/result.h"
#include "engine/io_engine.h"
#include "model/latency_tracer.h"
#include "model/run_observer.h"
#include "model/run_result.h"
#include "model/run_telemetry.h"
#include "model/stop_condition.h"
#include "runner/run_clock.h"
#include "workload/generation_map.h"

namespace flashmark {

// Who takes part in a run besides the workers. Not owned; all must outlive
// ExecuteRun.
struct RunHooks {
  std::span<RunObserver* const> observers;          // output thread, in order
  std::span<StopCondition* const> stop_conditions;  // sampler thread
  // --verify: what earlier runs wrote (see above); null: a fresh map.
  GenerationMap* generations = nullptr;
  // The sampler's clock and interrupts; null: SystemRunClock.
  RunClock* clock = nullptr;
  // What the host and devices did, per interval and at the end
  // (model/run_telemetry.h); null: nothing but the workers' counters.
  RunTelemetry* telemetry = nullptr;
  // --trace-latency: where each IO's time went (model/latency_tracer.h);
  // null: not traced.
  LatencyTracer* latency_tracer = nullptr;
  // Called once every worker is prepared, right before the start instant
  // is taken (a cluster run meets its other ranks here and waits for the
  // common start). It returns the instant the run starts at (unix ns, this
  // host's clock; just past, so that every rank's interval deadlines fall
  // at the same instants however late each came back), or 0: now. An
  // error ends the run before any IO and is what ExecuteRun returns.
  // Empty: start at once.
  std::function<Result<int64_t>()> before_start;
};

// `run` arrives with spec, command line and environment filled in; the
// runner fills the rest. The spec's seed is fixed here when not given.
Result<RunResult> ExecuteRun(RunResult run, std::span<const IoFile> files,
                             const RunHooks& hooks);

// An empty generation map for --verify runs of `spec` on `files`: verify
// blocks of BlockAlignment(spec.block_sizes) bytes (every IO covers whole
// ones), over each file's size. FitsGenerationMap: whether `map` is one.
std::unique_ptr<GenerationMap> NewGenerationMap(const JobSpec& spec,
                                                std::span<const IoFile> files);
bool FitsGenerationMap(const GenerationMap& map, const JobSpec& spec,
                       std::span<const IoFile> files);

}  // namespace flashmark
