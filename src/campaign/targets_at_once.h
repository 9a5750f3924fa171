// A campaign cell with several targets ("two cards at once"): the cell's
// workload runs on every target at the same time, each target with its
// own workers (--threads per target), each in its own `flashmark run`
// process (so every target gets the runner, the interrupt handling and
// the store recording of a normal run). Each target's run is stored
// tagged part=<target>; then the aggregate (intervals summed by index,
// histograms merged, threads added up) is stored tagged part=all and is
// the cell's run, its command_line the per-target runs as they ran (each
// with its seed), after a comment naming the sweep cell. Meanwhile one
// live line per interval sums the targets.
//
// An interrupt (SIGINT, SIGTERM, SIGHUP) is passed on as SIGINT to the
// target runs; a killed sweep takes them down too (see
// system/background_process.h). Blocking; main thread.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "campaign/measured_run.h"
#include "common/result.h"
#include "config/run_options.h"
#include "config/tag_options.h"  // kPartTag
#include "store/run_store.h"

namespace flashmark {

struct TargetsAtOnceSettings {
  RunOptions options;  // the cell's workload; options.targets: 2 or more
  std::string database;
  RunLabels labels;  // the cell's label and tags
  std::string command_line;
};

// The aggregate run (stored; run_id set). Errors before any IO (a target
// refused, a program that could not start) come back as Error.
Result<MeasuredRun> RunTargetsAtOnce(const TargetsAtOnceSettings& settings,
                                     std::ostream& console);

}  // namespace flashmark
