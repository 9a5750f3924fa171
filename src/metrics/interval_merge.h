// Adding up the same interval measured in several places (the targets of
// a multi-target campaign cell run by separate processes; later, remote
// ranks): counters are summed, histograms merged (never percentiles
// averaged), and the interval is partial when any part was. Pure.
#pragma once

#include "metrics/interval_sample.h"

namespace flashmark {

// Adds `part` into `total`; `total` keeps its index and bounds.
void MergeInterval(IntervalSample& total, const IntervalSample& part);

}  // namespace flashmark
