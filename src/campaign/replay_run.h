// One replay (`flashmark replay TRACE TARGET...`): the stored trace onto
// the targets, recorded as a run (runner/replay_runner.h) with the console
// reporter and the store recorder, as PerformRun records a run.
//
// Targets: a regular file or a block device per device of the trace,
// device i onto TARGET i (a count that differs is a usage error). They are
// opened and judged by TargetSet with the rules of `run`: a trace that
// writes (or discards) is a write run, so a block device must be named in
// --allow-destroy and must not be mounted or held (system/device_safety.h).
// A trace device that spans more than its target (its size, or the end of
// its furthest IO) is refused without --map, naming both sizes.
//
// Every check (the database, the trace, the timing, the targets, the
// sizes, the engine) is made before the database is opened for writing
// and before any IO: bad input stores and writes nothing (usage errors,
// exit 2). Output: the live lines and the fidelity go to `console`; store
// errors to std::cerr. Blocking; runs on the main thread.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/run_observer.h"
#include "model/run_result.h"
#include "store/run_store.h"
#include "workload/replay_timing.h"
#include "workload/trace_offset_map.h"

namespace flashmark {

struct ReplaySettings {
  int64_t trace_id = 0;
  std::vector<std::string> targets;
  ReplayTiming timing;
  TraceOffsetMap map = TraceOffsetMap::kNone;
  std::vector<std::string> allow_destroy;
  std::string engine;  // "": io_uring where it works, else libaio
  // Without completion times in the trace, the most IOs in flight (afap's
  // depth); 0: 32 for afap, 256 for a timed replay (room for bursts). With
  // them, the trace's own maximum.
  int iodepth = 0;
  bool direct = true;
  bool quiet = false;
  std::string database;  // read for the trace; written unless no_db
  bool no_db = false;
  std::string command_line;
  RunLabels labels;
  std::ostream* console = nullptr;
  std::vector<RunObserver*> observers;  // after the built-in ones (--json)
};

struct ReplayRun {
  RunResult result;
  int64_t run_id = 0;  // 0 when not stored
  bool store_failed = false;
};

Result<ReplayRun> PerformReplay(const ReplaySettings& settings);

}  // namespace flashmark
