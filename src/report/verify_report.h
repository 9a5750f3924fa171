// The console view of --verify results: one line per bad block (kind,
// exact file and offset, what was found) and the summary lines of a run or
// of `flashmark verify`. Writes only to the injected stream; pure
// otherwise.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

#include "model/verify_result.h"

namespace flashmark {

// "3 bad (1 torn, 1 misdirected, 1 lost)" or "none bad".
std::string VerifyCountsText(const VerifyCounts& counts);

// "torn         /mnt/x/flashmark.3 offset 1048576 (4 KiB): ...".
std::string DescribeMismatch(const VerifyMismatch& mismatch);

// The verify block of a summary: what was checked during the run (when
// `during_run` is given), the read-back, then the first `max_listed`
// mismatches, one per line.
void PrintVerifyOutcome(const std::optional<VerifyCounts>& during_run,
                        const VerifyOutcome& outcome, std::ostream& out,
                        size_t max_listed = 20);

}  // namespace flashmark
