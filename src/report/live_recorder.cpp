#include "report/live_recorder.h"

#include "analysis/run_summary.h"

namespace flashmark {

LiveRecorder::LiveRecorder(RunLabels labels, Analyze analyze)
    : labels_(std::move(labels)), analyze_(std::move(analyze)) {}

void LiveRecorder::OnStart(const RunResult& run) {
  std::lock_guard lock(mutex_);
  header_ = RunHeader(run);
  record_ = LiveRunRecord();
  for (const IntervalSample& sample : run.intervals) record_.Add(sample);
  started_ = true;
  ++changes_;
}

void LiveRecorder::OnInterval(const RunResult&, const IntervalSample& sample) {
  std::lock_guard lock(mutex_);
  record_.Add(sample);
  ++changes_;
}

void LiveRecorder::OnEnd(const RunResult& run) {
  std::lock_guard lock(mutex_);
  header_ = RunHeader(run);  // its status, summary and end
  // Its intervals are those OnInterval had, unless some came only here.
  for (size_t k = record_.intervals(); k < run.intervals.size(); ++k) {
    record_.Add(run.intervals[k]);
  }
  ended_ = true;
  ++changes_;
}

namespace {

// `sample` without its histograms (the copy costs its counters only).
IntervalSample Counters(IntervalSample& sample) {
  LatencyHistogram read = std::move(sample.read_latency);
  LatencyHistogram write = std::move(sample.write_latency);
  LatencyHistogram schedule = std::move(sample.schedule_latency);
  LatencySplit split = std::move(sample.latency_split);
  IntervalSample counters = sample;
  sample.read_latency = std::move(read);
  sample.write_latency = std::move(write);
  sample.schedule_latency = std::move(schedule);
  sample.latency_split = std::move(split);
  counters.read_latency = {};
  counters.write_latency = {};
  counters.schedule_latency = {};
  counters.latency_split = {};
  return counters;
}

}  // namespace

Result<std::shared_ptr<const LiveSnapshot>> LiveRecorder::Snapshot() {
  std::lock_guard made(snapshot_mutex_);
  StoredRun stored;
  bool ended = false;
  LiveRunState exact;  // what the blocks do not tell
  {
    std::lock_guard lock(mutex_);
    if (snapshot_ && snapshot_changes_ == changes_) return snapshot_;
    if (!started_) {
      return std::make_shared<const LiveSnapshot>(
          LiveSnapshot{{}, {}, "the run is setting up"});
    }
    stored.run = RunHeader(header_);
    record_.CopyBlocks(blocks_, blocks_generation_);
    exact.intervals = record_.intervals();
    exact.last_full = record_.last_full();
    exact.block_intervals = record_.block_intervals();
    ended = ended_;
    snapshot_changes_ = changes_;
  }
  stored.id = run_id_;
  stored.labels = labels_;
  RunResult& run = stored.run;
  // The blocks, histograms and all, for the summary and the analysis;
  // back to blocks_ (the next snapshot copies only what changed) after.
  run.intervals = std::move(blocks_);
  if (!ended) {  // what the run's end will fill in, so far (the totals
                 // over the blocks are those over the intervals)
    run.status = RunStatus::kRunning;
    run.summary = SummarizeRun(
        run.intervals,
        run.intervals.empty() ? 0 : run.intervals.back().end_ns / 1e9);
  }
  if (!HasFullInterval(run)) {
    blocks_ = std::move(run.intervals);
    snapshot_ = std::make_shared<const LiveSnapshot>(
        LiveSnapshot{{}, {}, "waiting for the first full interval"});
    return snapshot_;
  }
  // Analysed as intervals of the blocks' length; shown (config, the
  // command to reproduce it) with the run's own.
  const auto interval = run.spec.interval;
  run.spec.interval *= static_cast<int64_t>(exact.block_intervals);
  auto analysis = analyze_(run);
  run.spec.interval = interval;
  // What is drawn needs no interval's histograms (the analysis merged
  // them; ReportRun): the snapshot, and each copy of it a request makes
  // for the report data, keeps only the counters.
  std::vector<IntervalSample> shown;
  shown.reserve(run.intervals.size());
  for (IntervalSample& block : run.intervals) shown.push_back(Counters(block));
  blocks_ = std::move(run.intervals);
  run.intervals = std::move(shown);
  if (!analysis.ok()) {
    snapshot_.reset();
    return analysis.error();
  }
  LiveRunState state = LiveRunState::Of(run);
  state.intervals = exact.intervals;
  state.last_full = std::move(exact.last_full);
  state.block_intervals = exact.block_intervals;
  LiveSnapshot snapshot;
  snapshot.runs.push_back({std::move(stored), std::move(*analysis), {}});
  snapshot.states.push_back(state);
  snapshot_ = std::make_shared<const LiveSnapshot>(std::move(snapshot));
  return snapshot_;
}

}  // namespace flashmark
