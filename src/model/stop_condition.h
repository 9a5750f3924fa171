// StopCondition: decides whether a run has done what it set out to do
// (e.g. --until-steady: steady state reached), apart from observing it.
// Asked on the sampler's thread right after each full interval is taken,
// before that interval reaches any observer; true ends the run normally
// (status ok) at that boundary. It must be quick and never wait or do IO:
// it runs between two sampling deadlines. Printing what it decided is the
// business of an observer (model/run_observer.h), on the output thread.
#pragma once

#include "model/interval_sample.h"

namespace flashmark {

class StopCondition {
 public:
  virtual ~StopCondition() = default;
  virtual bool ShouldStop(const IntervalSample& sample) = 0;
};

}  // namespace flashmark
