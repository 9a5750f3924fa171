// RunTelemetry: what a run reads of the host beside its own counters (the
// devices' /proc/diskstats, CPU time, temperatures, SMART at the end).
// The runner calls it; system/host_telemetry.h implements it on the real
// machine. Threading: Sample() is called on the sampler thread only, once
// just before the workers start (the baseline; its result is dropped) and
// then right after each interval's snapshot, never on an IO thread; it
// must be quick (reads of /proc and sysfs, no tool runs). Finish() is
// called once, on the same thread, after the workers are joined and before
// the observers see the end: it may be slow (smartctl) and adds what the
// end of the run knows to the environment (health at the end).
#pragma once

#include "model/environment.h"
#include "model/interval_telemetry.h"

namespace flashmark {

class RunTelemetry {
 public:
  virtual ~RunTelemetry() = default;
  // What changed since the previous call.
  virtual IntervalTelemetry Sample() = 0;
  virtual void Finish(Environment& environment) = 0;
};

}  // namespace flashmark
