#include "store/schema.h"

#include <fmt/format.h>

namespace flashmark {

const char* MigrationSql(int to_version) {
  switch (to_version) {
    case 1:
      return R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  label TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  command_line TEXT NOT NULL,
  config_json TEXT NOT NULL,
  environment_json TEXT NOT NULL,
  tool_version TEXT NOT NULL,
  git_revision TEXT NOT NULL,
  start_unix_ns INTEGER NOT NULL,
  end_unix_ns INTEGER,
  error_json TEXT,
  summary_json TEXT
);
CREATE TABLE intervals (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  partial INTEGER NOT NULL,
  read_ios INTEGER NOT NULL,
  read_bytes INTEGER NOT NULL,
  write_ios INTEGER NOT NULL,
  write_bytes INTEGER NOT NULL,
  fsyncs INTEGER NOT NULL,
  errors INTEGER NOT NULL,
  read_hist BLOB,
  write_hist BLOB,
  schedule_hist BLOB,
  PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
)sql";
    case 2:
      return R"sql(
CREATE TABLE tags (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
);
ALTER TABLE runs ADD COLUMN source TEXT NOT NULL DEFAULT 'flashmark';
ALTER TABLE runs ADD COLUMN source_hash TEXT;
ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN boot_id TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_by_start ON runs(start_unix_ns);
)sql";
    case 3:
      return R"sql(
CREATE TABLE campaigns (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  file_path TEXT NOT NULL,
  file_hash TEXT NOT NULL,
  command_line TEXT NOT NULL,
  status TEXT NOT NULL,
  cell_count INTEGER NOT NULL,
  start_unix_ns INTEGER NOT NULL,
  end_unix_ns INTEGER,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  boot_id TEXT NOT NULL
);
CREATE TABLE campaign_cells (
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  parameters_json TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
  reset_json TEXT,
  error_json TEXT,
  start_unix_ns INTEGER,
  end_unix_ns INTEGER,
  PRIMARY KEY (campaign_id, idx)
) WITHOUT ROWID;
CREATE INDEX campaigns_by_file ON campaigns(file_path);
)sql";
    case 4:
      return R"sql(
ALTER TABLE intervals ADD COLUMN spans INTEGER NOT NULL DEFAULT 1;
)sql";
    case 5:
      return R"sql(
ALTER TABLE campaign_cells ADD COLUMN plan_json TEXT;
CREATE TABLE campaign_mounts (
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  mount_point TEXT NOT NULL,
  mount_id INTEGER NOT NULL,
  device INTEGER NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (campaign_id, mount_point, mount_id)
);
)sql";
    case 6:
      return R"sql(
ALTER TABLE intervals ADD COLUMN telemetry_json TEXT;
)sql";
    case 7:  // --trace-latency (model/latency_split.h); NULL: not traced
      return R"sql(
ALTER TABLE intervals ADD COLUMN flashmark_hist BLOB;
ALTER TABLE intervals ADD COLUMN queue_hist BLOB;
ALTER TABLE intervals ADD COLUMN device_hist BLOB;
ALTER TABLE intervals ADD COLUMN completion_hist BLOB;
ALTER TABLE intervals ADD COLUMN untraced INTEGER;
)sql";
    case 8:  // the campaign file's text (NULL: stored before it was kept)
      return R"sql(
ALTER TABLE campaigns ADD COLUMN file_text TEXT;
)sql";
    case 9:  // block IO traces (store/trace_store.h)
      return R"sql(
CREATE TABLE traces (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  origin TEXT NOT NULL,
  start_unix_ns INTEGER NOT NULL,
  duration_ns INTEGER NOT NULL,
  ios INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  complete INTEGER NOT NULL,
  file_hash TEXT NOT NULL,
  meta_json TEXT NOT NULL
);
CREATE TABLE trace_chunks (
  trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  ios INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (trace_id, seq)
);
)sql";
    case 10:  // --profile's commit latency (model/app_profile.h); NULL: none
      return R"sql(
ALTER TABLE intervals ADD COLUMN commit_hist BLOB;
)sql";
    case 11:  // --trace-latency's parts by latency (model/split_by_latency.h)
      return R"sql(
ALTER TABLE intervals ADD COLUMN split_bands BLOB;
)sql";
    default:
      return nullptr;
  }
}

Result<int> SchemaVersion(Database& db) {
  auto statement = db.Prepare("PRAGMA user_version");
  if (!statement.ok()) return statement.error();
  auto row = statement->Step();
  if (!row.ok()) return row.error();
  return static_cast<int>(statement->Int(0));
}

Status Migrate(Database& db) {
  auto version = SchemaVersion(db);
  if (!version.ok()) return version.error();
  if (*version > kSchemaVersion) {
    return RuntimeError(
        fmt::format("database {} has schema v{}, newer than this flashmark "
                    "reads (up to v{})",
                    db.path(), *version, kSchemaVersion),
        "use a newer flashmark, or another --db");
  }
  for (int step = *version + 1; step <= kSchemaVersion; ++step) {
    auto transaction = Transaction::Begin(db);
    if (!transaction.ok()) return transaction.error();
    // Another process may have migrated while this one waited for the lock.
    auto now = SchemaVersion(db);
    if (!now.ok()) return now.error();
    if (*now >= step) continue;
    if (Status applied = db.Execute(MigrationSql(step)); !applied.ok()) {
      return applied;
    }
    if (Status set = db.Execute(fmt::format("PRAGMA user_version = {}", step));
        !set.ok()) {
      return set;
    }
    if (Status committed = transaction->Commit(); !committed.ok()) {
      return committed;
    }
  }
  return OkStatus();
}

}  // namespace flashmark
