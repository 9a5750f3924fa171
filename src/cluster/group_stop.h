// GroupStop: the StopCondition that ends a rank's run when rank 0 says
// that every rank stops: with --stonewall when some rank has finished
// (IOR's -D semantics: everyone stops when the first rank finishes its
// --io-limit or --bytes), with --until-steady when the aggregate is
// steady. Trip() is called on the output thread (where the stop message
// arrives), and ShouldStop asked on the sampler's: an atomic flag between
// them, so the rank stops at its next interval boundary.
#pragma once

#include <atomic>

#include "model/stop_condition.h"

namespace flashmark {

class GroupStop : public StopCondition {
 public:
  void Trip() { tripped_.store(true, std::memory_order_relaxed); }
  bool tripped() const { return tripped_.load(std::memory_order_relaxed); }
  bool ShouldStop(const IntervalSample& /*sample*/) override {
    return tripped();
  }

 private:
  std::atomic<bool> tripped_{false};
};

// When rank 0 stops every rank (cluster/rank_collector.h). Not owned.
struct GroupStopRule {
  GroupStop* stop = nullptr;  // rank 0's own; null: ranks never stop together
  bool first_end = false;     // --stonewall: once the first rank has ended
  // --until-steady: asked with each aggregate interval (the aggregate, not
  // any one rank, is judged).
  StopCondition* aggregate = nullptr;
};

}  // namespace flashmark
