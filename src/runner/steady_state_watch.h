// Steady state during a run: the run's throughput (MiB/s, reads and writes
// together, one value per full interval) followed with the online SNIA PTS
// check (analysis/steady_state_monitor.h), in two halves that see the same
// intervals in the same order and so reach the same verdicts:
//
// SteadyStateStop (a StopCondition, on the sampler's thread): with
// --until-steady, ends the run once steady state is reached. It decides
// only; it prints nothing.
//
// SteadyStateWatch (a RunObserver, on the output thread): says so on the
// console: when steady state is reached (with the measured and allowed
// excursions, and "stopping" with --until-steady), a warning line whenever
// the throughput leaves a steady regime it had reached (an SLC-cache or GC
// cliff), and at the end, with --until-steady, when it was not reached.
#pragma once

#include <ostream>

#include "analysis/steady_state_monitor.h"
#include "model/run_observer.h"
#include "model/stop_condition.h"

namespace flashmark {

class SteadyStateStop : public StopCondition {
 public:
  explicit SteadyStateStop(const JobSpec& spec);
  bool ShouldStop(const IntervalSample& sample) override;

 private:
  SteadyStateMonitor monitor_;
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
  bool reached_ = false;
  size_t departures_reported_ = 0;
};

}  // namespace flashmark
