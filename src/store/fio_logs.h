// fio's per-interval logs as an imported run's intervals: the averaged
// logs written with log_avg_msec (write_bw_log: "time, KiB/s, direction,
// bs, offset[, prio]"; write_iops_log: IOs/s; write_lat_log: mean lat and
// clat in ns) and the completion-latency histogram logs written with
// log_hist_msec (write_hist_log: "time, direction, bs, bin0, bin1, ..."
// with fio's 1856 log-linear bins, or 1856 / 2^log_hist_coarseness).
//
// The bw log (else the iops log) sets the intervals: each line time is an
// interval end, the previous one its start (the first starts log_avg_msec
// earlier). Bytes = KiB/s x 1024 x seconds, IOs = IOPS x seconds (or
// bytes / block size when only one of the two logs exists); several job
// threads (a group_reporting group) are summed interval by interval.
// Histogram lines go to the interval whose end is nearest (within half
// an interval), their bins recorded at fio's bin values; mean-latency
// lines become ToolSeries ("read clat mean", ns). Times: fio writes
// milliseconds since the job started.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/run_result.h"
#include "store/import_common.h"

namespace flashmark {

// FIO_IO_U_PLAT_NR in fio 3.x: 29 groups of 64 bins.
inline constexpr size_t kFioBins = 1856;
// The latency in ns fio reports for bin `index` (its plat_idx_to_val:
// exact below 128 ns, then the middle of the bin, within 1/128).
uint64_t FioBinValue(size_t index);
// The bin whose value is exactly `value_ns` (JSON+ "bins" keys); -1: none.
int64_t FioBinIndex(uint64_t value_ns);

// One imported run's log files, one per fio job thread for each kind.
struct FioRunLogs {
  std::vector<ImportFile> bw, iops, clat, lat, clat_hist;
};

// Reads PREFIX_bw.N.log, PREFIX_iops.N.log, PREFIX_clat.N.log,
// PREFIX_lat.N.log and PREFIX_clat_hist.N.log for the job threads N =
// first .. first + count - 1 (fio numbers them from 1), or PREFIX_bw.log
// ... (fio's per_job_logs=0) when `whole_file` says the JSON holds this
// run only. A run without a bw or an iops log is a usage error.
Result<FioRunLogs> ReadFioLogs(const std::string& prefix, int first, int count,
                               bool whole_file);

struct FioLogShape {
  double interval_msec = 1000;  // log_avg_msec
  uint32_t block_size = 4096;   // bw <-> IOs when one of the logs is missing
};

// What ApplyFioLogs leaves for the caller's remainder interval.
struct FioLogRest {
  // Per direction (read, write), fio-bin counts of all the intervals'
  // histograms together; empty when the hist logs were coarse (bins not
  // fio's own) or absent.
  std::vector<uint64_t> read_bins, write_bins;
  // Histogram lines later than the last interval.
  IntervalSample late;
};

// Replaces run.intervals with the logs' intervals and appends the latency
// series to run.imported.series. Errors name the log file and line.
Result<FioLogRest> ApplyFioLogs(const FioRunLogs& logs,
                                const FioLogShape& shape, RunResult& run);

}  // namespace flashmark
