#include "report/live_recorder.h"

#include "analysis/run_summary.h"

namespace flashmark {

LiveRecorder::LiveRecorder(RunLabels labels, Analyze analyze)
    : labels_(std::move(labels)), analyze_(std::move(analyze)) {}

void LiveRecorder::OnStart(const RunResult& run) {
  std::lock_guard lock(mutex_);
  run_ = run;
  started_ = true;
}

void LiveRecorder::OnInterval(const RunResult&, const IntervalSample& sample) {
  std::lock_guard lock(mutex_);
  run_.intervals.push_back(sample);
}

void LiveRecorder::OnEnd(const RunResult& run) {
  std::lock_guard lock(mutex_);
  run_ = run;
  ended_ = true;
}

Result<LiveSnapshot> LiveRecorder::Snapshot() {
  StoredRun stored;
  bool ended = false;
  {
    std::lock_guard lock(mutex_);
    if (!started_) return LiveSnapshot{{}, {}, "the run is setting up"};
    stored.run = run_;
    ended = ended_;
  }
  stored.id = run_id_;
  stored.labels = labels_;
  RunResult& run = stored.run;
  const double elapsed =
      run.intervals.empty() ? 0 : run.intervals.back().end_ns / 1e9;
  if (!ended) {
    run.status = RunStatus::kRunning;
    run.summary = SummarizeRun(run.intervals, elapsed);
  }
  bool any_full = false;
  for (const IntervalSample& sample : run.intervals)
    any_full |= !sample.partial;
  if (!any_full) {
    return LiveSnapshot{{}, {}, "waiting for the first full interval"};
  }
  auto analysis = analyze_(run);
  if (!analysis.ok()) return analysis.error();
  LiveRunState state;
  state.running = !ended;
  state.elapsed_seconds = elapsed;
  if (run.spec.time.count() > 0) {
    state.time_limit_seconds = run.spec.time.count() / 1e9;
  }
  state.until_steady = run.spec.until_steady;
  LiveSnapshot snapshot;
  snapshot.runs.push_back({std::move(stored), std::move(*analysis)});
  snapshot.states.push_back(state);
  return snapshot;
}

}  // namespace flashmark
