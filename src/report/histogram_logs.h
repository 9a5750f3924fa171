// A run's per-interval latency histograms in the two formats existing
// plotting tools read:
//   - HdrHistogram interval logs (format 1.3, as HistogramLogWriter
//     writes them): one line per interval and direction, tagged "read" or
//     "write", start and length in seconds since the log's start time,
//     the interval's maximum in ms, and the histogram in HdrHistogram's
//     compressed V2 encoding (zlib), base64; values in nanoseconds,
//     3 significant digits, 1 ns to 2^43 ns. Each of our buckets is
//     recorded at its midpoint (our buckets are narrower than HdrHistogram's
//     at 3 digits: nothing is lost that the format keeps).
//   - fio's histogram logs (write_hist_log with log_hist_msec, as fio 3.x
//     writes them): "time_ms, direction, block size, bin0, ..., bin1855"
//     with fio's 29 x 64 log-linear bins in nanoseconds (FIO_IO_U_PLAT_*),
//     time the interval's end in ms, direction 0 read / 1 write, counts of
//     that interval only. Our bucket midpoints fall inside fio's bins, so
//     a fio log imported by flashmark comes back bin for bin.
// Intervals without IOs in a direction write no line for it. Pure;
// thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/latency_histogram.h"
#include "model/run_result.h"

namespace flashmark {

// A log is its header, then each interval's lines in order (so that a long
// run's can be written one interval at a time: report/stored_run_stream.h).
std::string HdrHistogramLogHeader(const RunResult& run);
std::string HdrHistogramLogLines(const IntervalSample& sample);
// fio's log has no header; each line names the run's (first) block size.
uint64_t FioHistogramLogBlockSize(const RunResult& run);
std::string FioHistogramLogLines(const IntervalSample& sample,
                                 uint64_t block_size);

// fio's bin for a latency in ns (its plat_val_to_idx); values beyond the
// last bin land in it.
size_t FioBinOf(uint64_t ns);

// HdrHistogram's compressed V2 encoding of `histogram` (values in ns),
// base64: what Histogram.encodeIntoCompressedByteBuffer writes.
std::string EncodeHdrHistogram(const LatencyHistogram& histogram);

}  // namespace flashmark
