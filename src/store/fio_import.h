// Imports fio 3.x JSON and JSON+ output (--output-format=json or json+) as
// one run per job, or per group when fio reported a group
// (group_reporting: one JSON entry for numjobs threads).
//
// Each run keeps fio's own figures as fio printed them (per direction
// IOPS, bandwidth, io_bytes, runtime, clat/lat/slat means and clat
// percentiles; trim too, which flashmark does not model as IO), the job
// options, and fio's steady-state ("steadystate") block. Without logs the
// run is one interval over fio's runtime holding the read and write
// totals; JSON+ latency buckets (clat_ns "bins") become its latency
// histograms, so percentiles match fio's within one fio bucket. With logs
// (see fio_logs.h) the logs make the intervals; what fio's totals hold
// beyond them becomes a partial last interval, with the JSON+ buckets the
// histogram logs did not cover.
//
// Errors (usage errors, nothing returned): "FILE:LINE: ..." for text that
// is not JSON (a truncated file names its last line), "FILE: JSON path
// /jobs/0/read/iops: ..." for JSON that is not fio's, and fio versions
// other than fio-3.x. Text before the JSON (fio's notes on stdout) is
// skipped. Pure apart from `logs`; thread-safe.
#pragma once

#include <functional>
#include <vector>

#include "common/result.h"
#include "store/fio_logs.h"
#include "store/import_common.h"
#include "store/run_store.h"

namespace flashmark {

// The logs of the run made of fio job threads first .. first + count - 1;
// `whole_file`: the JSON holds this run only.
using FioLogReader =
    std::function<Result<FioRunLogs>(int first, int count, bool whole_file)>;

// Runs labelled with their job names (".N", fio's thread number, added
// when a name repeats), source "fio", source_hash the SHA-256 of the
// JSON text. An empty `logs` imports the JSON alone.
Result<std::vector<StoredRun>> ParseFioJson(const ImportFile& file,
                                            const FioLogReader& logs = {});

}  // namespace flashmark
