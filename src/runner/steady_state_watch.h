// Steady state during a run: the run's throughput (MiB/s, reads and writes
// together, one value per full interval) followed with the online SNIA PTS
// check (analysis/steady_state_monitor.h), in two halves that see the same
// intervals in the same order and so reach the same verdicts:
//
// SteadyStateStop (a StopCondition, on the sampler's thread): with
// --until-steady, ends the run once steady state is reached. With
// --min-time, not before it, and then only once the run's headline (the
// rule every command uses: analysis/run_analysis.h DefaultAnalysisOptions,
// the final regime after its warm-up) is steady, judged at each round's
// end, when the monitor's last rounds are steady too and lie inside the
// headline's window: a cliff inside the minimum voids a steady window
// found before it.
// It decides only; it prints nothing.
//
// SteadyStateWatch (a RunObserver, on the output thread): says so on the
// console: when steady state is reached (with the measured and allowed
// excursions, and "stopping" with --until-steady), a warning line whenever
// the throughput leaves a steady regime it had reached (an SLC-cache or GC
// cliff), and at the end, with --until-steady, when it was not reached.
#pragma once

#include <ostream>
#include <vector>

#include "analysis/headline.h"
#include "analysis/steady_state_monitor.h"
#include "model/run_observer.h"
#include "model/stop_condition.h"

namespace flashmark {

class SteadyStateStop : public StopCondition {
 public:
  explicit SteadyStateStop(const JobSpec& spec);
  bool ShouldStop(const IntervalSample& sample) override;

 private:
  // The headline of the series so far is steady and its window holds the
  // monitor's current steady window (which starts at the given time).
  bool HeadlineSteady(double window_start_seconds) const;

  SteadyStateMonitor monitor_;
  double min_seconds_ = 0;
  HeadlineOptions headline_options_;
  double interval_seconds_ = 1;
  std::vector<double> values_, starts_;  // the series so far, and
  double last_end_ = 0;                  // its measured times (seconds)
  size_t rounds_judged_ = 0;
};

class SteadyStateWatch : public RunObserver {
 public:
  SteadyStateWatch(const JobSpec& spec, std::ostream& out);

  void OnStart(const RunResult&) override {}
  void OnInterval(const RunResult& run, const IntervalSample& sample) override;
  void OnEnd(const RunResult& run) override;

 private:
  std::ostream& out_;
  SteadyStateMonitor monitor_;
  bool until_steady_;
  std::chrono::nanoseconds min_time_;
  bool reached_ = false;
  size_t departures_reported_ = 0;
};

}  // namespace flashmark
