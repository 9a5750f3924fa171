// The store's schema and its migrations. PRAGMA user_version holds the
// schema version; Migrate() applies, in one transaction each, every step
// from the file's version up to kSchemaVersion. A file from a newer
// flashmark is refused with a clear error, never modified.
//   v1  runs, intervals (histograms as varint blobs)
//   v2  tags; run source (flashmark/fio/sysbench) and file hash; the
//       writer's host, pid and boot id (to tell interrupted from running)
//   v3  campaigns (sweeps) and their cells: parameters, status, the run
//       that measured each, reset steps done and errors
//   v4  intervals.spans: the configured intervals one row covers (> 1
//       when the sampler was stalled and merged them)
//   v5  each cell's expanded plan (config/campaign_plan.h), for --resume;
//       campaign_mounts: the mounts a campaign made and has not undone
//       (system/mount_ledger.h)
//   v6  intervals.telemetry_json; v7 the --trace-latency histograms;
//   v8  the campaign file's text
//   v9  traces and trace_chunks: block IO traces (store/trace_store.h)
//   v10 intervals.commit_hist: --profile's commit latency
#pragma once

#include "common/result.h"
#include "store/sqlite.h"

namespace flashmark {

inline constexpr int kSchemaVersion = 11;

Result<int> SchemaVersion(Database& db);
Status Migrate(Database& db);

// The DDL of one step (exposed so tests can build old databases).
const char* MigrationSql(int to_version);

}  // namespace flashmark
