// What an application profile's run (model/app_profile.h) shows beside its
// headline (commit p99 per interval): the whole run's commit p99 and
// p99.9, read p99, and the IOs and syncs per commit, as a line for
// `run`, `show` and `analyze` and as JSON for their --json. Latencies in
// the JSON are nanoseconds. Pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/run_result.h"

namespace flashmark {

// "  innodb: commit p99 1.2 ms  p99.9 3.4 ms  read p99 0.5 ms;  1234
// commits, 4.00 reads, 3.00 writes and 1.25 syncs per commit\n"; "" for a
// run without a profile.
std::string ProfileFiguresLine(const RunResult& run);
// {"name", "mix", "commits", "commit_p99_ns", "commit_p99.9_ns",
// "read_p99_ns", "reads_per_commit", "writes_per_commit",
// "syncs_per_commit"}; null for a run without a profile.
nlohmann::json ProfileFiguresJson(const RunResult& run);

}  // namespace flashmark
