// What repeats a stored run, as `show` and the report print it: the exact
// `flashmark run` command (ReproduceCommand); for an import, the nearest
// flashmark command (ReproduceStyle::kImported; the tool's own command
// line is the run's command_line); for a sweep cell's aggregate over
// several targets (tag part=all), the per-target commands run at once as
// the sweep ran them (each with its own seed: the aggregate's
// command_line); for a cluster run's aggregate (tag rank=all), its
// command_line: rank 0's command under `mpirun -np N`; for a replay, its
// own `flashmark replay` command. Pure.
#pragma once

#include <string>

#include "store/run_store.h"

namespace flashmark {

std::string ReproduceText(const StoredRun& stored);

}  // namespace flashmark
