// SteadyStateWatch: follows the run's throughput (MiB/s, reads and writes
// together) with the online SNIA PTS check (analysis/steady_state_monitor.h)
// and says so on the console: when steady state is reached (with the
// measured and allowed excursions), and with a warning line whenever the
// throughput leaves a steady regime it had reached (an SLC-cache or GC
// cliff). With --until-steady it asks the runner to stop once steady, and
// says at the end when steady state was not reached.
// Runs on the runner's thread (RunObserver).
#pragma once

#include <ostream>

#include "analysis/steady_state_monitor.h"
#include "runner/run_observer.h"

namespace flashmark {

class SteadyStateWatch : public RunObserver {
 public:
  SteadyStateWatch(const JobSpec& spec, std::ostream& out);

  void OnStart(const RunResult&) override {}
  void OnInterval(const RunResult& run, const IntervalSample& sample) override;
  void OnEnd(const RunResult& run) override;
  bool WantsStop() const override { return until_steady_ && reached_; }

 private:
  std::ostream& out_;
  SteadyStateMonitor monitor_;
  bool until_steady_;
  bool reached_ = false;
  size_t departures_reported_ = 0;
};

}  // namespace flashmark
