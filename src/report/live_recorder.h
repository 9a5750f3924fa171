// LiveRecorder: the live view of the run in progress in this process. A
// RunObserver (calls on the run's output thread) that keeps the run's
// header and its intervals in bounded memory (LiveRunRecord: every
// interval up to kLiveMaxBlocks of them, then merged into blocks of 2, 4,
// 8... intervals, so a week of 1 s intervals costs what ~600 do), and a
// LiveSource (calls on the HTTP server's threads) that hands out a
// snapshot analysed by `analyze` (the caller's analysis options: the same
// rule as every command) on those blocks. The record is guarded by a mutex
// held only to copy the blocks that changed since the last snapshot (the
// last one and the new ones), never while analysing; the IO and sampler
// threads never touch it. A snapshot is made once per new interval (and
// once at the end) and shared by every request until the next: a page
// polling each interval and a Prometheus scrape cost one copy and one
// analysis of at most kLiveMaxBlocks blocks per interval between them.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>

#include "model/run_observer.h"
#include "report/live_run_record.h"
#include "report/live_view.h"

namespace flashmark {

class LiveRecorder final : public RunObserver, public LiveSource {
 public:
  using Analyze = std::function<Result<RunAnalysis>(const RunResult&)>;
  LiveRecorder(RunLabels labels, Analyze analyze);

  void OnStart(const RunResult& run) override;
  void OnInterval(const RunResult& run, const IntervalSample& sample) override;
  void OnEnd(const RunResult& run) override;

  Result<std::shared_ptr<const LiveSnapshot>> Snapshot() override;
  // The id the store gave the run (0 until then, and without a store).
  void SetRunId(int64_t id) { run_id_ = id; }

 private:
  std::atomic<int64_t> run_id_{0};
  RunLabels labels_;
  Analyze analyze_;
  std::mutex mutex_;
  RunResult header_;  // the run without its intervals
  LiveRunRecord record_;
  bool started_ = false;
  bool ended_ = false;
  uint64_t changes_ = 0;  // OnStart, OnInterval and OnEnd calls so far
  // The last snapshot and the changes it saw; made under snapshot_mutex_.
  std::mutex snapshot_mutex_;
  std::shared_ptr<const LiveSnapshot> snapshot_;
  uint64_t snapshot_changes_ = 0;
  // The record's blocks as the last snapshot copied them (CopyBlocks).
  std::vector<IntervalSample> blocks_;
  uint64_t blocks_generation_ = 0;
};

}  // namespace flashmark
