#include "store/run_store.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "analysis/run_summary.h"
#include "common/json_text.h"
#include "document/json_format.h"
#include "document/replay_format.h"
#include "document/telemetry_format.h"
#include "document/tool_report_format.h"
#include "model/latency_histogram.h"
#include "store/histogram_codec.h"
#include "store/schema.h"
#include "store/store_file.h"
#include "store/writer_identity.h"
#include "system/output_path.h"

namespace flashmark {
namespace {

using nlohmann::json;

RunStatus StatusFromName(const std::string& name) {
  if (name == "ok") return RunStatus::kOk;
  if (name == "failed") return RunStatus::kFailed;
  if (name == "interrupted") return RunStatus::kInterrupted;
  return RunStatus::kRunning;
}

// The latency figures of a stored summary (what intervals without their
// histograms cannot give again).
void ReadLatencySummaries(const json& summary, RunSummary& into) {
  into.latency = LatencySummaryFromJson(summary.value("latency", json()));
  into.read_latency =
      LatencySummaryFromJson(summary.value("read_latency", json()));
  into.write_latency =
      LatencySummaryFromJson(summary.value("write_latency", json()));
  into.schedule_latency =
      LatencySummaryFromJson(summary.value("schedule_latency", json()));
  into.commit_latency =
      LatencySummaryFromJson(summary.value("commit_latency", json()));
  into.latency_split =
      LatencySplitSummaryFromJson(summary.value("latency_split", json()));
}

// Column `column` of an intervals row whose first column is its idx,
// decoded; the error names the run, the interval and the database.
Result<LatencyHistogram> IntervalHistogram(Statement& row, int column,
                                           int64_t run_id,
                                           const std::string& path) {
  auto decoded = DecodeHistogram(row.Blob(column));
  if (!decoded.ok()) {
    return RuntimeError(fmt::format("run {} interval {} in {}: {}", run_id,
                                    row.Int(0), path, decoded.error().message));
  }
  return decoded;
}

// An interval's --trace-latency bands (none where NULL).
Result<SplitByLatency> IntervalSplitBands(Statement& row, int column,
                                          int64_t run_id,
                                          const std::string& path) {
  if (row.IsNull(column)) return SplitByLatency();
  auto decoded = DecodeSplitByLatency(row.Blob(column));
  if (!decoded.ok()) {
    return RuntimeError(fmt::format("run {} interval {} in {}: {}", run_id,
                                    row.Int(0), path, decoded.error().message));
  }
  return decoded;
}

constexpr const char* kRunColumns =
    "id, label, status, command_line, config_json, environment_json, "
    "tool_version, git_revision, start_unix_ns, end_unix_ns, error_json, "
    "summary_json, source, source_hash, host, pid, boot_id";

}  // namespace

std::string DefaultDatabasePath() {
  const char* from_environment = std::getenv("FLASHMARK_DB");
  return from_environment && *from_environment ? from_environment
                                               : "flashmark.db";
}

Result<RunStore> RunStore::Open(const std::string& path) {
  auto judged = CheckOutputPath("database", path, OutputKind::kDatabase);
  if (!judged.ok()) return judged.error();
  bool empty = true;
  if (Status usable = CheckStoreHeader(path, &empty); !usable.ok()) {
    return usable.error();
  }
  auto db = Database::Open(path, true);
  if (!db.ok()) return db.error();
  if (!empty) {  // a flashmark database, checked before anything is written
    if (Status usable = CheckStoreSchema(*db, path); !usable.ok()) {
      return usable.error();
    }
  }
  // The first query on a file that is not a database fails here. Switching
  // a new file to WAL can answer "locked" at once, without the busy
  // handler, while another process creates the same file: retry a while.
  Status wal = db->Execute("PRAGMA journal_mode=WAL");
  for (int attempt = 0; !wal.ok() && attempt < 100 &&
                        wal.error().message.find("locked") != std::string::npos;
       ++attempt) {
    usleep(50'000);
    wal = db->Execute("PRAGMA journal_mode=WAL");
  }
  if (!wal.ok()) return wal.error();
  if (Status fk =
          db->Execute("PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL");
      !fk.ok()) {
    return fk.error();
  }
  if (Status migrated = Migrate(*db); !migrated.ok()) return migrated.error();
  return RunStore(std::move(*db));
}

Result<RunStore> RunStore::OpenForReading(const std::string& path) {
  auto db = OpenStoreForReading(path);
  if (!db.ok()) return db.error();
  return RunStore(std::move(*db));
}

namespace {

// The runs row's config: the spec, and for imports what the tool said.
json ConfigJson(const RunResult& run) {
  json config = ToJson(run.spec);
  if (!run.imported.empty()) config["imported"] = ToJson(run.imported);
  if (run.replay) config["replay"] = ToJson(*run.replay);
  return config;
}

}  // namespace

Result<int64_t> RunStore::InsertRunRow(const RunResult& run,
                                       const RunLabels& labels, bool running) {
  auto insert = db_.Prepare(
      "INSERT INTO runs (label, status, command_line, config_json, "
      "environment_json, tool_version, git_revision, start_unix_ns, "
      "end_unix_ns, error_json, summary_json, source, source_hash, host, pid, "
      "boot_id) VALUES "
      "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
      "?16)");
  if (!insert.ok()) return insert.error();
  insert->Bind(1, labels.label)
      .Bind(2, RunStatusName(run.status))
      .Bind(3, run.command_line)
      .Bind(4, JsonTextKeepingBytes(ConfigJson(run)))
      .Bind(5, JsonTextKeepingBytes(ToJson(run.environment)))
      .Bind(6, run.tool_version)
      .Bind(7, run.git_revision)
      .Bind(8, run.start_unix_ns)
      .Bind(12, labels.source)
      .Bind(13, labels.source_hash);
  if (running) {  // the end comes with FinishRun; the writer tells a crash
    insert->BindNull(9).BindNull(10).BindNull(11);
    insert->Bind(14, HostName())
        .Bind(15, static_cast<int64_t>(getpid()))
        .Bind(16, BootId());
  } else {
    insert->Bind(9, run.end_unix_ns)
        .Bind(11, JsonTextKeepingBytes(ToJson(run.summary)));
    if (run.error) {
      insert->Bind(10, JsonTextKeepingBytes(ToJson(*run.error)));
    } else {
      insert->BindNull(10);
    }
    insert->Bind(14, "").Bind(15, int64_t{0}).Bind(16, "");  // no writer
  }
  if (Status done = insert->Run(); !done.ok()) return done.error();
  const int64_t id = db_.LastInsertId();
  auto tag = db_.Prepare(
      "INSERT OR REPLACE INTO tags (run_id, key, value) VALUES (?1, ?2, ?3)");
  if (!tag.ok()) return tag.error();
  for (const auto& [key, value] : labels.tags) {
    tag->Reset();
    tag->Bind(1, id).Bind(2, key).Bind(3, value);
    if (Status done = tag->Run(); !done.ok()) return done.error();
  }
  return id;
}

Result<int64_t> RunStore::BeginRun(const RunResult& header,
                                   const RunLabels& labels) {
  auto transaction = Transaction::Begin(db_);
  if (!transaction.ok()) return transaction.error();
  auto id = InsertRunRow(header, labels, true);
  if (!id.ok()) return id.error();
  if (Status committed = transaction->Commit(); !committed.ok()) {
    return committed.error();
  }
  return *id;
}

Status RunStore::AppendInterval(int64_t run_id, const IntervalSample& sample) {
  auto insert = db_.Prepare(
      "INSERT OR REPLACE INTO intervals (run_id, idx, start_ns, end_ns, "
      "partial, read_ios, read_bytes, write_ios, write_bytes, fsyncs, errors, "
      "read_hist, write_hist, schedule_hist, spans, telemetry_json, "
      "flashmark_hist, queue_hist, device_hist, completion_hist, untraced, "
      "commit_hist, split_bands) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
      "?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)");
  if (!insert.ok()) return insert.error();
  insert->Bind(1, run_id)
      .Bind(2, static_cast<int64_t>(sample.index))
      .Bind(3, static_cast<int64_t>(sample.start_ns))
      .Bind(4, static_cast<int64_t>(sample.end_ns))
      .Bind(5, static_cast<int64_t>(sample.partial))
      .Bind(6, static_cast<int64_t>(sample.read.ios))
      .Bind(7, static_cast<int64_t>(sample.read.bytes))
      .Bind(8, static_cast<int64_t>(sample.write.ios))
      .Bind(9, static_cast<int64_t>(sample.write.bytes))
      .Bind(10, static_cast<int64_t>(sample.fsyncs))
      .Bind(11, static_cast<int64_t>(sample.errors))
      .BindBlob(12, EncodeHistogram(sample.read_latency))
      .BindBlob(13, EncodeHistogram(sample.write_latency))
      .BindBlob(14, EncodeHistogram(sample.schedule_latency))
      .Bind(15, static_cast<int64_t>(sample.spans));
  if (!sample.telemetry.empty()) {
    insert->Bind(16, JsonText(ToJson(sample.telemetry)));
  }
  if (const LatencySplit& split = sample.latency_split; !split.empty()) {
    insert->BindBlob(17, EncodeHistogram(split.flashmark))
        .BindBlob(18, EncodeHistogram(split.queue))
        .BindBlob(19, EncodeHistogram(split.device))
        .BindBlob(20, EncodeHistogram(split.completion))
        .Bind(21, static_cast<int64_t>(split.untraced));
    if (!split.by_latency.empty()) {
      insert->BindBlob(23, EncodeSplitByLatency(split.by_latency));
    }
  }
  if (!sample.commit_latency.empty()) {
    insert->BindBlob(22, EncodeHistogram(sample.commit_latency));
  }
  return insert->Run();  // autocommit: one durable interval at a time
}

Status RunStore::FinishRun(int64_t run_id, const RunResult& run) {
  auto update = db_.Prepare(
      "UPDATE runs SET status = ?2, end_unix_ns = ?3, error_json = ?4, "
      "summary_json = ?5, config_json = ?6, environment_json = ?7 "
      "WHERE id = ?1");
  if (!update.ok()) return update.error();
  update->Bind(1, run_id)
      .Bind(2, RunStatusName(run.status))
      .Bind(3, run.end_unix_ns)
      .Bind(5, JsonTextKeepingBytes(ToJson(run.summary)))
      .Bind(6, JsonTextKeepingBytes(ConfigJson(run)))
      .Bind(7, JsonTextKeepingBytes(ToJson(run.environment)));
  if (run.error) {
    update->Bind(4, JsonTextKeepingBytes(ToJson(*run.error)));
  } else {
    update->BindNull(4);
  }
  return update->Run();
}

Result<StoredRun> RunStore::ReadRunRow(Statement& row, bool with_intervals,
                                       bool with_histograms,
                                       bool summarize_unfinished) {
  StoredRun stored;
  stored.id = row.Int(0);
  stored.labels.label = row.Text(1);
  RunResult& run = stored.run;
  run.status = StatusFromName(row.Text(2));
  run.command_line = row.Text(3);
  const json config = ParseJsonKeepingBytes(row.Text(4));
  if (config.is_discarded()) {
    return RuntimeError(fmt::format(
        "run {} in {}: its config is not valid JSON", stored.id, path()));
  }
  auto spec = JobSpecFromJson(config);
  if (!spec.ok()) return spec.error();
  run.spec = *spec;
  if (config.contains("imported"))
    run.imported = ToolReportFromJson(config["imported"]);
  if (config.contains("replay"))
    run.replay = ReplayOutcomeFromJson(config["replay"]);
  const json environment = ParseJsonKeepingBytes(row.Text(5));
  if (environment.is_object())
    run.environment = EnvironmentFromJson(environment);
  run.tool_version = row.Text(6);
  run.git_revision = row.Text(7);
  run.start_unix_ns = row.Int(8);
  run.end_unix_ns = row.Int(9);
  if (!row.IsNull(10)) {
    run.error = RunErrorFromJson(ParseJsonKeepingBytes(row.Text(10)));
  }
  const json summary =
      row.IsNull(11) ? json() : ParseJsonKeepingBytes(row.Text(11));
  stored.labels.source = row.Text(12);
  stored.labels.source_hash = row.Text(13);
  if (run.status == RunStatus::kRunning &&
      WriterIsGone(row.Text(14), row.Int(15), row.Text(16))) {
    run.status = RunStatus::kInterrupted;
  }
  // A run that never finished (killed, or still running) has no stored
  // summary: it is computed from the intervals, here as for LoadRun (a list
  // needs the counters only: the latency stays unknown).
  const bool summarize =
      with_intervals || (!summary.is_object() && summarize_unfinished);
  if (summarize) {
    if (Status loaded =
            LoadIntervals(stored, with_intervals && with_histograms);
        !loaded.ok()) {
      return loaded.error();
    }
    const double elapsed =
        run.intervals.empty() ? 0 : run.intervals.back().end_ns / 1e9;
    run.summary = SummarizeRun(run.intervals,
                               summary.is_object()
                                   ? summary.value("elapsed_seconds", elapsed)
                                   : elapsed);
    if (!with_intervals) std::vector<IntervalSample>().swap(run.intervals);
    if (with_intervals && !with_histograms && !summary.is_object()) {
      if (Status merged = MergeLatencies(stored); !merged.ok()) {
        return merged.error();
      }
    }
  }
  if (summary.is_object()) {
    run.summary.cpu_user_seconds = summary.value("cpu_user_seconds", 0.0);
    run.summary.cpu_system_seconds = summary.value("cpu_system_seconds", 0.0);
    if (!with_histograms || !with_intervals)
      ReadLatencySummaries(summary, run.summary);
    if (!with_intervals) {
      run.summary.elapsed_seconds = summary.value("elapsed_seconds", 0.0);
      run.summary.read_mibs =
          SeriesSummaryFromJson(summary.value("read_mibs", json()));
      run.summary.write_mibs =
          SeriesSummaryFromJson(summary.value("write_mibs", json()));
      run.summary.iops = SeriesSummaryFromJson(summary.value("iops", json()));
      run.summary.read.ios =
          summary.value("read", json::object()).value("ios", uint64_t{0});
      run.summary.write.ios =
          summary.value("write", json::object()).value("ios", uint64_t{0});
    }
  }
  auto tags =
      db_.Prepare("SELECT key, value FROM tags WHERE run_id = ?1 ORDER BY key");
  if (!tags.ok()) return tags.error();
  tags->Bind(1, stored.id);
  for (;;) {
    auto next = tags->Step();
    if (!next.ok()) return next.error();
    if (!*next) break;
    stored.labels.tags.emplace_back(tags->Text(0), tags->Text(1));
  }
  return stored;
}

Status RunStore::LoadIntervals(StoredRun& stored, bool with_histograms) {
  return VisitIntervals(stored.id, 0, with_histograms,
                        [&stored](IntervalSample sample) {
                          stored.run.intervals.push_back(std::move(sample));
                          return OkStatus();
                        });
}

Status RunStore::VisitIntervals(
    int64_t id, size_t first, bool with_histograms,
    const std::function<Status(IntervalSample)>& visit) {
  auto rows = db_.Prepare(
      std::string(
          "SELECT idx, start_ns, end_ns, partial, read_ios, read_bytes, "
          "write_ios, write_bytes, fsyncs, errors, spans, telemetry_json, "
          "untraced, commit_hist") +
      (with_histograms ? ", read_hist, write_hist, schedule_hist, "
                         "flashmark_hist, queue_hist, device_hist, "
                         "completion_hist, split_bands"
                       : "") +
      " FROM intervals WHERE run_id = ?1 ORDER BY idx LIMIT -1 OFFSET ?2");
  if (!rows.ok()) return rows.error();
  rows->Bind(1, id).Bind(2, static_cast<int64_t>(first));
  for (;;) {
    auto next = rows->Step();
    if (!next.ok()) return next.error();
    if (!*next) break;
    IntervalSample sample;
    sample.index = static_cast<uint32_t>(rows->Int(0));
    sample.start_ns = rows->Int(1);
    sample.end_ns = rows->Int(2);
    sample.partial = rows->Int(3) != 0;
    sample.read = {static_cast<uint64_t>(rows->Int(4)),
                   static_cast<uint64_t>(rows->Int(5))};
    sample.write = {static_cast<uint64_t>(rows->Int(6)),
                    static_cast<uint64_t>(rows->Int(7))};
    sample.fsyncs = rows->Int(8);
    sample.errors = rows->Int(9);
    sample.spans = static_cast<uint32_t>(std::max<int64_t>(1, rows->Int(10)));
    if (!rows->IsNull(11)) {
      sample.telemetry = TelemetryFromJson(
          nlohmann::json::parse(rows->Text(11), nullptr, false));
    }
    LatencySplit& split = sample.latency_split;
    LatencyHistogram* histograms[] = {
        &sample.read_latency, &sample.write_latency, &sample.schedule_latency,
        &split.flashmark,     &split.queue,          &split.device,
        &split.completion};
    if (!rows->IsNull(12))
      split.untraced = static_cast<uint64_t>(rows->Int(12));
    // --profile's commits: always read (a few buckets per interval), as
    // the headline's series is their percentile.
    if (!rows->IsNull(13)) {
      auto decoded = IntervalHistogram(*rows, 13, id, path());
      if (!decoded.ok()) return decoded.error();
      sample.commit_latency = std::move(*decoded);
    }
    for (int k = 0; with_histograms && k < 7; ++k) {
      auto decoded = IntervalHistogram(*rows, 14 + k, id, path());
      if (!decoded.ok()) return decoded.error();
      *histograms[k] = std::move(*decoded);
    }
    if (with_histograms) {
      auto bands = IntervalSplitBands(*rows, 21, id, path());
      if (!bands.ok()) return bands.error();
      split.by_latency = std::move(*bands);
    }
    if (Status visited = visit(std::move(sample)); !visited.ok())
      return visited;
  }
  return OkStatus();
}

Status RunStore::MergeLatencies(StoredRun& stored) {
  LatencyAccumulator kinds[3];
  Status scanned = VisitHistograms(
      stored.id, 3,
      [&kinds](size_t, std::span<const LatencyHistogram> histograms,
               const SplitByLatency&) {
        for (int k = 0; k < 3; ++k) kinds[k].Add(histograms[k]);
        return OkStatus();
      });
  if (!scanned.ok()) return scanned;
  SummarizeLatencies(kinds[0].Result(), kinds[1].Result(), kinds[2].Result(),
                     stored.run.summary);
  return OkStatus();
}

Status RunStore::VisitHistograms(
    int64_t id, int kinds,
    const std::function<Status(size_t, std::span<const LatencyHistogram>,
                               const SplitByLatency&)>& visit) {
  auto rows = db_.Prepare(fmt::format(
      "SELECT idx, read_hist, write_hist{}{} FROM intervals WHERE run_id = ?1 "
      "ORDER BY idx",
      kinds >= 3 ? ", schedule_hist" : "",
      kinds == 7 ? ", flashmark_hist, queue_hist, device_hist, "
                   "completion_hist, split_bands"
                 : ""));
  if (!rows.ok()) return rows.error();
  rows->Bind(1, id);
  LatencyHistogram histograms[7];
  SplitByLatency by_latency;
  for (size_t position = 0;; ++position) {
    auto next = rows->Step();
    if (!next.ok()) return next.error();
    if (!*next) break;
    for (int k = 0; k < kinds; ++k) {
      auto decoded = IntervalHistogram(*rows, 1 + k, id, path());
      if (!decoded.ok()) return decoded.error();
      histograms[k] = std::move(*decoded);
    }
    if (kinds == 7) {
      auto bands = IntervalSplitBands(*rows, 8, id, path());
      if (!bands.ok()) return bands.error();
      by_latency = std::move(*bands);
    }
    if (Status visited = visit(
            position, std::span<const LatencyHistogram>(histograms, kinds),
            by_latency);
        !visited.ok()) {
      return visited;
    }
  }
  return OkStatus();
}

Result<std::vector<StoredRun>> RunStore::ListRuns(const RunFilter& filter) {
  std::string sql = fmt::format("SELECT {} FROM runs WHERE 1", kRunColumns);
  if (filter.label) sql += " AND label = ?1";
  if (filter.since_unix_ns) sql += " AND start_unix_ns >= ?2";
  if (filter.until_unix_ns) sql += " AND start_unix_ns < ?3";
  for (size_t i = 0; i < filter.tags.size(); ++i) {
    sql += fmt::format(
        " AND EXISTS (SELECT 1 FROM tags t WHERE t.run_id = runs.id AND "
        "t.key = ?{} AND t.value = ?{})",
        10 + 2 * i, 11 + 2 * i);
  }
  sql += " ORDER BY id";
  auto rows = db_.Prepare(sql);
  if (!rows.ok()) return rows.error();
  if (filter.label) rows->Bind(1, *filter.label);
  if (filter.since_unix_ns) rows->Bind(2, filter.since_unix_ns);
  if (filter.until_unix_ns) rows->Bind(3, filter.until_unix_ns);
  for (size_t i = 0; i < filter.tags.size(); ++i) {
    rows->Bind(static_cast<int>(10 + 2 * i), filter.tags[i].first);
    rows->Bind(static_cast<int>(11 + 2 * i), filter.tags[i].second);
  }
  std::vector<StoredRun> runs;
  for (;;) {
    auto next = rows->Step();
    if (!next.ok()) return next.error();
    if (!*next) break;
    auto stored = ReadRunRow(*rows, false);
    if (!stored.ok()) return stored.error();
    if (filter.status && stored->run.status != *filter.status) continue;
    runs.push_back(std::move(*stored));
  }
  return runs;
}

Status RunStore::ScanHistograms(
    int64_t id, const std::function<void(size_t, const LatencyHistogram&,
                                         const LatencyHistogram&)>& visit) {
  return VisitHistograms(
      id, 2,
      [&visit](size_t position, std::span<const LatencyHistogram> histograms,
               const SplitByLatency&) {
        visit(position, histograms[0], histograms[1]);
        return OkStatus();
      });
}

Result<StoredRun> RunStore::LoadRunRow(int64_t id, bool with_intervals,
                                       bool with_histograms) {
  auto row = db_.Prepare(
      fmt::format("SELECT {} FROM runs WHERE id = ?1", kRunColumns));
  if (!row.ok()) return row.error();
  row->Bind(1, id);
  auto found = row->Step();
  if (!found.ok()) return found.error();
  if (!*found) {
    return UsageError(fmt::format("no run {} in {}", id, path()),
                      "`flashmark list` shows the runs stored there");
  }
  // A header (no intervals) reads nothing from them, not even a summary.
  return ReadRunRow(*row, with_intervals, with_histograms,
                    /*summarize_unfinished=*/with_intervals);
}

Result<StoredRun> RunStore::LoadRun(int64_t id, bool with_histograms) {
  return LoadRunRow(id, true, with_histograms);
}

Result<StoredRun> RunStore::LoadRunHeader(int64_t id) {
  return LoadRunRow(id, false, false);
}

Result<std::optional<int64_t>> RunStore::NewestRunId() {
  auto row = db_.Prepare("SELECT MAX(id) FROM runs");
  if (!row.ok()) return row.error();
  auto found = row->Step();
  if (!found.ok()) return found.error();
  if (!*found || row->IsNull(0)) return std::optional<int64_t>();
  return std::optional<int64_t>(row->Int(0));
}

Status RunStore::VisitIntervalsFrom(
    int64_t id, size_t first,
    const std::function<Status(IntervalSample)>& visit) {
  return VisitIntervals(id, first, true, visit);
}

Status RunStore::DeleteRun(int64_t id) {
  auto transaction = Transaction::Begin(db_);
  if (!transaction.ok()) return transaction.error();
  for (const char* sql : {"DELETE FROM intervals WHERE run_id = ?1",
                          "DELETE FROM tags WHERE run_id = ?1",
                          "DELETE FROM runs WHERE id = ?1"}) {
    auto statement = db_.Prepare(sql);
    if (!statement.ok()) return statement.error();
    statement->Bind(1, id);
    if (Status done = statement->Run(); !done.ok()) return done;
  }
  if (db_.Changes() == 0) {
    return UsageError(fmt::format("no run {} in {}", id, path()),
                      "`flashmark list` shows the runs stored there");
  }
  return transaction->Commit();
}

Status RunStore::RetagRuns(
    std::span<const int64_t> ids,
    const std::vector<std::pair<std::string, std::string>>& set,
    const std::vector<std::string>& remove) {
  auto transaction = Transaction::Begin(db_);
  if (!transaction.ok()) return transaction.error();
  auto exists = db_.Prepare("SELECT 1 FROM runs WHERE id = ?1");
  auto insert = db_.Prepare(
      "INSERT OR REPLACE INTO tags (run_id, key, value) VALUES (?1, ?2, ?3)");
  auto erase = db_.Prepare("DELETE FROM tags WHERE run_id = ?1 AND key = ?2");
  if (!exists.ok()) return exists.error();
  if (!insert.ok()) return insert.error();
  if (!erase.ok()) return erase.error();
  for (const int64_t id : ids) {
    exists->Reset();
    exists->Bind(1, id);
    auto found = exists->Step();
    if (!found.ok()) return found.error();
    if (!*found) {
      return UsageError(fmt::format("no run {} in {}", id, path()),
                        "`flashmark list` shows the runs stored there");
    }
    for (const auto& [key, value] : set) {
      insert->Reset();
      insert->Bind(1, id).Bind(2, key).Bind(3, value);
      if (Status done = insert->Run(); !done.ok()) return done;
    }
    for (const std::string& key : remove) {
      erase->Reset();
      erase->Bind(1, id).Bind(2, key);
      if (Status done = erase->Run(); !done.ok()) return done;
    }
  }
  return transaction->Commit();
}

Status RunStore::SetRunAnalysis(std::span<const int64_t> ids,
                                const AnalysisSettings& analysis) {
  auto transaction = Transaction::Begin(db_);
  if (!transaction.ok()) return transaction.error();
  auto update = db_.Prepare(
      "UPDATE runs SET config_json = json_set(config_json, '$.analysis', "
      "json(?2)) WHERE id = ?1");
  if (!update.ok()) return update.error();
  const std::string text = JsonTextKeepingBytes(AnalysisSettingsJson(analysis));
  for (const int64_t id : ids) {
    update->Reset();
    update->Bind(1, id).Bind(2, text);
    if (Status done = update->Run(); !done.ok()) return done;
  }
  return transaction->Commit();
}

// --- Imported runs -----------------------------------------------------------

Result<std::vector<int64_t>> RunStore::RunsFromSource(
    const std::string& source_hash) {
  auto rows =
      db_.Prepare("SELECT id FROM runs WHERE source_hash = ?1 ORDER BY id");
  if (!rows.ok()) return rows.error();
  rows->Bind(1, source_hash);
  std::vector<int64_t> ids;
  for (;;) {
    auto next = rows->Step();
    if (!next.ok()) return next.error();
    if (!*next) break;
    ids.push_back(rows->Int(0));
  }
  return ids;
}

Result<std::vector<int64_t>> RunStore::InsertRuns(
    std::span<const StoredRun> runs, bool again) {
  auto transaction = Transaction::Begin(db_);
  if (!transaction.ok()) return transaction.error();
  for (const StoredRun& stored : runs) {
    if (again || stored.labels.source_hash.empty()) continue;
    auto existing = RunsFromSource(stored.labels.source_hash);
    if (!existing.ok()) return existing.error();
    if (!existing->empty()) {
      return UsageError(
          fmt::format(
              "{} was imported before (the same SHA-256): run{} {}",
              stored.run.imported.file.empty() ? "this file"
                                               : stored.run.imported.file,
              existing->size() == 1 ? "" : "s", fmt::join(*existing, ", ")),
          "nothing was imported; add --again to import it once more");
    }
  }
  std::vector<int64_t> ids;
  for (const StoredRun& stored : runs) {
    const RunResult& run = stored.run;
    auto id = InsertRunRow(run, stored.labels, false);
    if (!id.ok()) return id.error();
    for (const IntervalSample& sample : run.intervals) {
      if (Status done = AppendInterval(*id, sample); !done.ok())
        return done.error();
    }
    ids.push_back(*id);
  }
  if (Status committed = transaction->Commit(); !committed.ok()) {
    return committed.error();
  }
  return ids;
}

}  // namespace flashmark
