// Adding up the same interval measured in several places (the targets of
// a multi-target campaign cell run by separate processes, the ranks of a
// cluster run): counters are summed, histograms merged (never percentiles
// averaged), the interval is partial when any part was and spans as many
// configured intervals as the longest part. And adding up one part's
// consecutive intervals into a longer one (AppendInterval), which is how
// parts whose samples cover different stretches (one was stalled: its
// sample spans several intervals) are lined up first (model/
// interval_aligner.h). Pure.
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

// Extends `total` by `later`, the interval that followed it in the same
// run: counters summed, histograms merged, telemetry deltas summed, the end
// and spans taken up to `later`'s end.
void AppendInterval(IntervalSample& total, const IntervalSample& later);

// The telemetry of one place over consecutive intervals: every delta summed
// (disks matched by name), the temperature the later one's.
void AddTelemetry(IntervalTelemetry& total, const IntervalTelemetry& later);

// The telemetry of parts that ran on one host at once: a device or the
// machine's CPU seen by several parts counts once (each saw the same
// counters), the processes' own CPU is summed, the hottest disk is kept.
void MergeTelemetry(IntervalTelemetry& total, const IntervalTelemetry& part);

}  // namespace flashmark
