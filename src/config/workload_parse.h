// Parsers for workload option values that are more than a unit: modes,
// block-size mixes, access distributions, data patterns, fsync modes.
// Pure functions; errors name the text and carry a hint, callers prefix
// the option name.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "model/job_spec.h"

namespace flashmark {

// sysbench names rndrd rndwr rndrw seqrd seqwr seqrewr, fio aliases
// randread randwrite randrw read write rewrite.
Result<IoMode> ParseMode(std::string_view text);
// Every name ParseMode takes, sysbench's first (for shell completion).
std::vector<std::string_view> ModeNames();

// "16k", or a mix "4k/60:64k/40" whose weights (percent) add up to 100.
// Each size > 0, a multiple of 512 bytes and at most 64 MiB.
Result<std::vector<BlockSizeWeight>> ParseBlockSizeMix(std::string_view text);

// "uniform", "zipf:1.2" (theta > 0, != 1), "pareto:0.9" (0 < h < 1),
// "normal:10" (stddev as % of the range, 0 < s <= 100).
Result<Distribution> ParseDistribution(std::string_view text);

// "random", "zero", "compressible:50" (0..100).
Result<DataPattern> ParseDataPattern(std::string_view text);

// The whole of `text` (spaces and tabs around it ignored) as a finite
// number ("12.5" yes; "12.5x", "", "nan", "1e999" no).
std::optional<double> ParseFiniteNumber(std::string_view text);

// "fsync" or "fdatasync".
Result<FsyncMode> ParseFsyncMode(std::string_view text);

}  // namespace flashmark
