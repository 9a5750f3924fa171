#include "report/live_recorder.h"

#include "analysis/run_summary.h"

namespace flashmark {

LiveRecorder::LiveRecorder(RunLabels labels, Analyze analyze)
    : labels_(std::move(labels)), analyze_(std::move(analyze)) {}

void LiveRecorder::OnStart(const RunResult& run) {
  std::lock_guard lock(mutex_);
  run_ = run;
  started_ = true;
  ++changes_;
}

void LiveRecorder::OnInterval(const RunResult&, const IntervalSample& sample) {
  std::lock_guard lock(mutex_);
  run_.intervals.push_back(sample);
  ++changes_;
}

void LiveRecorder::OnEnd(const RunResult& run) {
  std::lock_guard lock(mutex_);
  run_ = run;
  ended_ = true;
  ++changes_;
}

Result<std::shared_ptr<const LiveSnapshot>> LiveRecorder::Snapshot() {
  std::lock_guard made(snapshot_mutex_);
  StoredRun stored;
  bool ended = false;
  {
    std::lock_guard lock(mutex_);
    if (snapshot_ && snapshot_changes_ == changes_) return snapshot_;
    if (!started_) {
      return std::make_shared<const LiveSnapshot>(
          LiveSnapshot{{}, {}, "the run is setting up"});
    }
    stored.run = run_;
    ended = ended_;
    snapshot_changes_ = changes_;
  }
  stored.id = run_id_;
  stored.labels = labels_;
  RunResult& run = stored.run;
  if (!ended) {  // what the run's end will fill in, so far
    run.status = RunStatus::kRunning;
    run.summary = SummarizeRun(
        run.intervals,
        run.intervals.empty() ? 0 : run.intervals.back().end_ns / 1e9);
  }
  if (!HasFullInterval(run)) {
    snapshot_ = std::make_shared<const LiveSnapshot>(
        LiveSnapshot{{}, {}, "waiting for the first full interval"});
    return snapshot_;
  }
  auto analysis = analyze_(run);
  if (!analysis.ok()) {
    snapshot_.reset();
    return analysis.error();
  }
  const LiveRunState state = LiveRunState::Of(run);
  LiveSnapshot snapshot;
  snapshot.runs.push_back({std::move(stored), std::move(*analysis), {}});
  snapshot.states.push_back(state);
  snapshot_ = std::make_shared<const LiveSnapshot>(std::move(snapshot));
  return snapshot_;
}

}  // namespace flashmark
