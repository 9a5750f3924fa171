// MeasurementWarnings: what makes a run's figures not what they seem to
// measure, judged from its spec and environment before it starts, each as
// one sentence with a hint ("the file set fits in memory and --direct is
// off: this run measures the page cache, not the device; ..."). They are
// printed before the run and recorded in Environment::warnings, which
// show and the reports print. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "model/environment.h"
#include "model/job_spec.h"

namespace flashmark {

std::vector<std::string> MeasurementWarnings(const JobSpec& spec,
                                             const Environment& environment);

}  // namespace flashmark
