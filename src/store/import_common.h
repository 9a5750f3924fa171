// What the importers of other tools' results (sysbench_import, fio_import,
// fio_logs) share: the input file as text, errors that name the file and
// its line or JSON path, strict number parsing, and the last step of
// building an imported run: the totals the tool printed beyond what its
// interval lines cover become one partial interval, then the summary is
// computed like a native run's. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "model/run_result.h"

namespace flashmark {

struct ImportFile {
  std::string name;  // as the user named it, for messages
  std::string text;
  // When the file was last written; stands in for the run's end when the
  // output names no clock time (sysbench).
  int64_t modified_unix_ns = 0;
};

// The most an import reads from one file (fio JSON, a fio log, sysbench
// output): 1 GiB, far above what the tools write for a day of logging.
inline constexpr uint64_t kMaxImportFileBytes = uint64_t{1} << 30;

// Reads a whole regular file of at most kMaxImportFileBytes. A missing or
// unreadable file, anything but a regular file (a device such as
// /dev/zero, a fifo, a directory) and a larger file are usage errors
// naming the file (and the limit).
Result<ImportFile> ReadImportFile(const std::string& path);

// "FILE:LINE: message" as a usage error (lines count from 1).
Error LineError(const ImportFile& file, size_t line, const std::string& message,
                const std::string& hint = "");
// "FILE: JSON path /jobs/0/read/iops: message" as a usage error.
Error JsonPathError(const ImportFile& file, const std::string& path,
                    const std::string& message, const std::string& hint = "");

// The whole of `text` (spaces around it ignored) as a number; nullopt for
// anything else ("12.5" yes, "12.5x", "", "nan" no).
std::optional<double> ParseNumber(std::string_view text);
std::string_view TrimSpaces(std::string_view text);
// A parsed number usable as a count, size or time: within [0, limit]
// (casts beyond 2^63 would be undefined); nullopt otherwise.
std::optional<double> Bounded(std::optional<double> value, double limit = 9e18);
// The lines of a text, without their line ends.
std::vector<std::string_view> SplitLines(std::string_view text);
// The words of a line, separated by blanks (spaces and tabs).
std::vector<std::string_view> SplitBlanks(std::string_view line);

// Completes an imported run whose intervals (possibly none) came from the
// tool's per-interval output: what `totals` holds beyond the intervals'
// sums (counters, never below zero) becomes a partial interval from the
// last interval's end to `end_ns` with `remainder_histograms`' latencies;
// with no intervals at all it becomes one full interval over the whole
// run. Pads the tool's series to one value per interval, then fills
// run.summary from the intervals (elapsed = end_ns).
struct ImportTotals {
  DirectionTotals read;
  DirectionTotals write;
  uint64_t fsyncs = 0;
};
void FinishImportedRun(RunResult& run, const ImportTotals& totals,
                       uint64_t end_ns,
                       IntervalSample remainder_histograms = {});

}  // namespace flashmark
