// Adding up the same interval measured in several places (the targets of
// a multi-target campaign cell run by separate processes; later, remote
// ranks): counters are summed, histograms merged (never percentiles
// averaged), the interval is partial when any part was and spans as many
// configured intervals as the longest part. Pure.
#pragma once

#include "model/interval_sample.h"

namespace flashmark {

// Adds the counters of `sample` (IOs and bytes per direction, fsyncs,
// errors, verify counts) into `total`: an IntervalSample or a RunSummary.
template <typename Totals>
void AddCounters(Totals& total, const IntervalSample& sample) {
  total.read.ios += sample.read.ios;
  total.read.bytes += sample.read.bytes;
  total.write.ios += sample.write.ios;
  total.write.bytes += sample.write.bytes;
  total.fsyncs += sample.fsyncs;
  total.errors += sample.errors;
  total.verify.Add(sample.verify);
}

// Adds `part` into `total`; `total` keeps its index and bounds.
void MergeInterval(IntervalSample& total, const IntervalSample& part);

// The telemetry of parts that ran on one host at once: a device or the
// machine's CPU seen by several parts counts once (each saw the same
// counters), the processes' own CPU is summed, the hottest disk is kept.
void MergeTelemetry(IntervalTelemetry& total, const IntervalTelemetry& part);

}  // namespace flashmark
