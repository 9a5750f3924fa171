// Splits a job among its workers: which segments of which files each one
// covers and its share of the limits and of the rate. Pure function.
// Each file contributes its size rounded down to a multiple of the largest
// block size, so segment boundaries stay block-aligned for O_DIRECT.
// Random modes: every worker spans all files. Sequential modes: the
// concatenated space is cut into one contiguous slice per worker.
// With a profile (model/app_profile.h), each worker also gets its segments
// of every region: file r of a file set of one file per region, or the
// region's share of a single file or device; a per-thread region cut into
// one slice per worker, aligned to its largest IO.
#pragma once

#include <span>
#include <vector>

#include "common/result.h"
#include "engine/io_engine.h"
#include "model/job_spec.h"
#include "runner/worker.h"

namespace flashmark {

// `seed` is the run's seed (already chosen); worker seeds derive from it.
Result<std::vector<WorkerPlan>> PlanWorkers(const JobSpec& spec,
                                            std::span<const IoFile> files,
                                            uint64_t seed);

}  // namespace flashmark
