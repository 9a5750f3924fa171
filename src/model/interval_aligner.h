// IntervalAligner: lines up the intervals of several parts measured at
// once against one grid of configured intervals (the ranks of a cluster
// run, the targets of a cell run by separate processes), so that the sum of
// the parts' interval k is the sum of the same stretch of time on every
// part. A part's sample ends at the boundary its `spans` add up to; a part
// that was stalled has one sample over several boundaries where the others
// have one each. Each aggregate interval therefore ends at the first
// boundary every part's samples end at together: the others' samples up to
// it are joined (AppendInterval) before the parts are merged
// (MergeInterval), and its `spans` counts the configured intervals it
// covers. Times are the first part's.
//
// The parts' sample vectors are the caller's; they only grow between
// calls, and are passed, in the same order, to every call. Not
// thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/interval_sample.h"

namespace flashmark {

class IntervalAligner {
 public:
  using Parts = std::span<const std::vector<IntervalSample>* const>;

  struct Lined {
    IntervalSample total;               // the parts merged
    std::vector<IntervalSample> parts;  // each part over the same stretch
  };

  explicit IntervalAligner(size_t part_count);

  // The next aggregate interval, once every part has measured that far in
  // full samples; nullopt while one has not, or when a part's next sample
  // is partial (its end: what is left goes to Tail).
  std::optional<Lined> Next(Parts parts);

  // Every part's samples after the last aggregate interval, merged into
  // one partial interval (the run's tail: the drains, or what a part that
  // ran longer measured); nullopt when there are none.
  std::optional<IntervalSample> Tail(Parts parts) const;

  size_t emitted() const { return emitted_; }

 private:
  std::vector<size_t> next_;  // per part: its first sample not taken
  uint64_t common_ = 0;  // configured intervals taken so far, on every part
  size_t emitted_ = 0;
};

}  // namespace flashmark
