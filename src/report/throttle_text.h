// How every command shows a --detect-throttle run's finding
// (analysis/throttle_finder.h): one line, "throttle: burst 3000 IOPS for
// 412 s, then baseline 300 IOPS; refills 100 IOPS-s per s", then the
// bucket and each refill probe; and the same as JSON. Writes to the
// injected stream only; pure otherwise.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>

#include "analysis/cancel.h"
#include "analysis/throttle_finder.h"
#include "model/run_result.h"

namespace flashmark {

// Nothing for a run without --detect-throttle; a finding that failed is
// one line saying why.
void PrintRunThrottle(const RunResult& run, std::string_view indent,
                      std::ostream& out, const CancelToken& cancel = {});

// Null for a run without --detect-throttle; {"error": ...} when it failed.
nlohmann::json RunThrottleJson(const RunResult& run,
                               const CancelToken& cancel = {});

nlohmann::json ThrottleJson(const ThrottleFinding& finding);

}  // namespace flashmark
