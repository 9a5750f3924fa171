// RunStore: every run kept in one SQLite file (WAL mode; each interval is
// committed as it is measured, so a killed run keeps every finished
// interval and reads back as interrupted).
//
// Threading: one RunStore per thread; several processes may write the same
// file at once (WAL, busy timeout, short IMMEDIATE transactions).
// Ownership: owns its connection. Errors are values naming the file and a
// hint (full disk, read-only, locked, corrupt, newer schema).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "model/run_result.h"
#include "model/split_by_latency.h"
#include "store/sqlite.h"

namespace flashmark {

using Tags = std::vector<std::pair<std::string, std::string>>;

// What a run is filed under, beside its own data.
struct RunLabels {
  std::string label;
  Tags tags;
  std::string source = "flashmark";  // or "fio", "sysbench" (imports)
  std::string source_hash;           // of the imported file
};

struct StoredRun {
  int64_t id = 0;
  RunLabels labels;
  RunResult run;
};

struct RunFilter {
  Tags tags;  // all must match
  std::optional<std::string> label;
  std::optional<RunStatus> status;
  int64_t since_unix_ns = 0;  // 0 = no bound
  int64_t until_unix_ns = 0;
};

class RunStore {
 public:
  // Opens or creates the file, enables WAL, migrates the schema. The path
  // is judged first (system/output_path.h: a regular file, or a new name in
  // a writable directory) and an existing file must be a flashmark database
  // (store/store_file.h); both refusals are usage errors.
  static Result<RunStore> Open(const std::string& path);
  // An existing database, for reading only (store/store_file.h:
  // OpenStoreForReading): list, show, export, analyze, compare, report.
  static Result<RunStore> OpenForReading(const std::string& path);

  Result<int64_t> BeginRun(const RunResult& header, const RunLabels& labels);
  Status AppendInterval(int64_t run_id, const IntervalSample& sample);
  Status FinishRun(int64_t run_id, const RunResult& run);

  // Runs matching the filter, oldest first, with their summaries and
  // intervals left out (summary only). A run without a stored summary
  // (killed, or running) gets one from its interval counters, as LoadRun
  // computes it, without latencies.
  Result<std::vector<StoredRun>> ListRuns(const RunFilter& filter);
  // One whole run with every interval. An unknown id is a usage error.
  // Without histograms, intervals carry counters only (a day of 1 s
  // intervals then takes a few MB instead of a GB or two); the summary's
  // latency figures are there either way (a run with no stored summary
  // has them merged from its histograms, one interval at a time).
  Result<StoredRun> LoadRun(int64_t id, bool with_histograms = true);
  // The run without its intervals: its row, config, labels and tags, and
  // its summary as stored (none for a run not finished: nothing is read
  // from its intervals). With VisitIntervalsFrom, a reader that follows a
  // long run reads each interval once (flashmark serve).
  Result<StoredRun> LoadRunHeader(int64_t id);
  // The id of the newest run stored; none in an empty store.
  Result<std::optional<int64_t>> NewestRunId();
  // Visits the run's intervals from position `first` (as in LoadRun's
  // intervals) on, in order, histograms and all; the first error visit
  // returns ends it and is returned.
  Status VisitIntervalsFrom(int64_t id, size_t first,
                            const std::function<Status(IntervalSample)>& visit);
  // Streams the run's interval histograms in interval order:
  // visit(position in LoadRun's intervals, read, write).
  Status ScanHistograms(
      int64_t id, const std::function<void(size_t, const LatencyHistogram&,
                                           const LatencyHistogram&)>& visit);
  // The same for each interval's first `kinds` (2, 3 or 7) histograms:
  // visit(position, {read, write[, schedule[, the four parts of its
  // LatencySplit]]}, with 7 its LatencySplit's by_latency), empty where
  // not recorded; the first error visit returns ends the scan and is
  // returned.
  Status VisitHistograms(
      int64_t id, int kinds,
      const std::function<Status(size_t, std::span<const LatencyHistogram>,
                                 const SplitByLatency&)>& visit);
  Status DeleteRun(int64_t id);
  // Sets the tags `set` (replacing a key's value) and removes the keys
  // `remove` on every run of `ids`, in one transaction: an unknown id is
  // a usage error and changes nothing.
  Status RetagRuns(std::span<const int64_t> ids,
                   const std::vector<std::pair<std::string, std::string>>& set,
                   const std::vector<std::string>& remove);
  // Sets the runs' JobSpec::analysis (a campaign's [analysis] table) in
  // their stored config: for runs another process stored (a cell across
  // MPI ranks). In one transaction.
  Status SetRunAnalysis(std::span<const int64_t> ids,
                        const AnalysisSettings& analysis);

  // Imported runs (flashmark import): stores finished runs whole (row,
  // tags, every interval, summary; the ToolReport with the config) in one
  // transaction: all of them or none. Unless `again`, refuses with a usage
  // error when runs with the same labels.source_hash are stored already
  // (the same file imported before). Returns the new ids in order; the
  // StoredRun ids given are ignored.
  Result<std::vector<int64_t>> InsertRuns(std::span<const StoredRun> runs,
                                          bool again);
  // Ids of the runs whose source file had this SHA-256, oldest first.
  Result<std::vector<int64_t>> RunsFromSource(const std::string& source_hash);

  const std::string& path() const { return db_.path(); }
  // Once `stop` is set, reads and writes in progress fail ("interrupted")
  // instead of finishing (Database::StopWhen); for long reads a signal
  // should end.
  void StopWhen(const std::atomic<bool>* stop) { db_.StopWhen(stop); }

 private:
  // One runs row and its tags, in the caller's transaction: `running` (a
  // live run: its writer recorded, no end yet) or finished as `run` is.
  Result<int64_t> InsertRunRow(const RunResult& run, const RunLabels& labels,
                               bool running);
  explicit RunStore(Database db) : db_(std::move(db)) {}
  // One run by id (LoadRun, LoadRunHeader); an unknown id is a usage error.
  Result<StoredRun> LoadRunRow(int64_t id, bool with_intervals,
                               bool with_histograms);
  Result<StoredRun> ReadRunRow(Statement& row, bool with_intervals,
                               bool with_histograms = true,
                               bool summarize_unfinished = true);
  Status LoadIntervals(StoredRun& stored, bool with_histograms);
  Status VisitIntervals(int64_t id, size_t first, bool with_histograms,
                        const std::function<Status(IntervalSample)>& visit);
  // The summary's latency figures from every interval's histograms,
  // streamed: memory for three merged histograms only.
  Status MergeLatencies(StoredRun& stored);
  Database db_;
};

// Resolves the --db default: $FLASHMARK_DB or ./flashmark.db.
std::string DefaultDatabasePath();

}  // namespace flashmark
