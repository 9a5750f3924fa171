// JsonRunWriter: keeps the run document (document/json_format.h) at PATH as
// the run goes. The file at PATH is always a complete, valid JSON document:
// it is only ever replaced whole, by renaming a temporary written beside it
// (common/atomic_file.h), so a reader polling it, a killed run and a full
// filesystem all find a whole document (or none yet), never a part.
//
// - Nothing is created before the run starts: Check() judges the path
//   (system/output_path.h) and resolves symlinks; OnStart writes the first
//   document (header, no intervals, "status": "running").
// - After an interval the document (header, every interval so far,
//   "status": "running") is rewritten when the run time since the last
//   rewrite is at least the document's size divided by kRefreshBytesPerSecond
//   (1 MiB/s). Rewriting therefore costs at most about 1 MiB/s of writes on
//   average: a document under 1 MiB is refreshed every second (every
//   interval with a shorter --interval while it stays small), one of 10 MiB
//   every 10 s. Intervals are kept serialized, so a rewrite costs no
//   formatting. Intermediate documents are not synced; the final one is.
// - OnEnd writes the final document (status, error, summary).
// - A failed write (ENOSPC) leaves the previous complete document in place;
//   the first failure is reported on `errors` as a warning and later
//   refreshes try again. When the final document cannot be written,
//   complete() is false and the writer says on `errors` that the JSON is
//   incomplete; the caller fails the run (exit status 1).
// With path "-" the whole document goes to `stdout_stream` at the end.
// Runs on the run's output thread (RunObserver); not thread-safe.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "model/run_observer.h"
#include "system/output_path.h"

namespace flashmark {

inline constexpr uint64_t kRefreshBytesPerSecond = 1 << 20;

class JsonRunWriter : public RunObserver {
 public:
  JsonRunWriter(std::string path, std::ostream& stdout_stream,
                std::ostream& errors);

  // Judges the path before the run (creates nothing); "-" is always fine.
  // On success the document goes to the file the path resolves to.
  Result<OutputPath> Check();

  void OnStart(const RunResult& run) override;
  void OnInterval(const RunResult& run, const IntervalSample& sample) override;
  void OnEnd(const RunResult& run) override;

  // False when the final document could not be written: the file (if any)
  // holds an earlier, complete, "running" document.
  bool complete() const { return complete_; }
  // Documents written to the file so far, and their bytes (tests).
  int rewrites() const { return rewrites_; }
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  bool WriteDocument(const std::vector<std::string_view>& pieces, bool sync);
  void Refresh(uint64_t run_time_ns);

  std::string path_;        // as given, for messages
  std::string write_path_;  // symlinks resolved
  std::ostream& stdout_stream_;
  std::ostream& errors_;
  std::string head_;                    // the header without its closing brace
  std::vector<std::string> intervals_;  // each serialized
  uint64_t document_bytes_ = 0;         // of the next running document
  uint64_t last_refresh_ns_ = 0;        // run time of the last rewrite
  size_t intervals_in_file_ = 0;        // in the document on disk
  bool written_once_ = false;
  bool warned_ = false;
  bool complete_ = true;
  int rewrites_ = 0;
  uint64_t bytes_written_ = 0;
};

}  // namespace flashmark
