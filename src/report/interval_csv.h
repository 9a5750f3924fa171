// The per-interval table of a run as CSV (one row per interval: times in
// seconds, IOs and bytes per direction, MiB/s, IOPS, fsyncs, errors,
// latency percentiles in nanoseconds from the interval's histogram, and
// the configured intervals it spans: > 1 for a stall), led by "# key:
// value" comment lines holding the run's headline (headline_*: the rule
// every command uses) and its whole-run summary. Writes to the injected
// stream; pure otherwise. The headline's analysis stops early when cancel
// is set (the caller then discards the text).
#pragma once

#include <ostream>

#include "analysis/cancel.h"
#include "model/run_result.h"

namespace flashmark {

void WriteIntervalsCsv(const RunResult& run, std::ostream& out,
                       const CancelToken& cancel = {});

}  // namespace flashmark
