// ExecuteReplay: replays a block IO trace onto opened files and records it
// as a run. Design (the least invasive one): a replay is a run whose one
// worker is a ReplayWorker (runner/replay_worker.h) instead of Workers
// driven by an offset generator; everything that records a run is the
// same object here: the Sampler takes the worker's WorkerMeasures every
// interval through the same SamplingLoop (absolute deadlines, stalls,
// telemetry), the same OutputThread runs the observers (console, store,
// JSON), and the summary is SummarizeRun's. So a replay's intervals,
// headline, list/show/analyze/report are a run's. What a replay adds,
// RunResult::replay (model/replay_outcome.h), is filled here once the
// worker is done, before OutputThread::Finish, so OnEnd (the store's
// FinishRun, the console's summary, --json) sees the fidelity.
//
// `run` arrives with spec, command line, environment and run.replay's
// trace fields (id, source, timing, map, the trace's op counts) filled;
// the plan's IO source (read ahead on a thread of its own during the
// call) must outlive it. Stops when the trace is replayed, at the first IO
// error, or on an interrupt (as ExecuteRun).
// Returns an Error only when the replay could not start.
#pragma once

#include <span>

#include "common/result.h"
#include "engine/io_engine.h"
#include "model/run_result.h"
#include "runner/replay_worker.h"
#include "runner/runner.h"

namespace flashmark {

Result<RunResult> ExecuteReplay(RunResult run, const ReplayPlan& plan,
                                std::span<const IoFile> files,
                                const RunHooks& hooks);

}  // namespace flashmark
