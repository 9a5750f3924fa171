// SplitByLatency: --trace-latency's four parts (model/latency_split.h) by
// the IOs' latency, so that the split of a percentile adds up: per band of
// latency (16 buckets of histogram_buckets.h: 1/32 of an octave, under
// 3.2 % wide; 16 ns below 1 us), how many traced IOs fell in it and the
// sum of each of their parts. The parts' means in the band that holds a
// percentile add up to the mean latency of that band's IOs, which is
// within one band of the percentile: "latency p50 71 us = flashmark 2 +
// queue 4 + device 63 + completion 2", where each part's own p50 need not
// add up to anything.
// Sparse (the bands that hold IOs, in increasing order), mergeable. A
// value type; nanoseconds; not thread-safe for writes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/result.h"

namespace flashmark {

class SplitByLatency {
 public:
  // flashmark, queue, device, completion: ns.
  using Parts = std::array<uint64_t, 4>;
  struct Band {
    uint32_t index = 0;
    uint64_t ios = 0;
    Parts part_ns{};  // the sums over the band's IOs
    // Adds the IOs and sums of `other` (of the same band).
    void Add(const Band& other) {
      ios += other.ios;
      for (size_t part = 0; part < 4; ++part) {
        part_ns[part] += other.part_ns[part];
      }
    }
  };

  static constexpr uint32_t kBands = 1120;  // buckets::kCount / 16
  // The band of an IO whose parts add up to `ns`.
  static uint32_t BandOf(uint64_t ns);

  // From bands in strictly increasing index order, each below kBands with
  // at least one IO; an error says which rule a band broke (a damaged
  // store or document).
  static Result<SplitByLatency> FromBands(std::vector<Band> bands);

  void Merge(const SplitByLatency& other);
  const std::vector<Band>& bands() const { return bands_; }
  bool empty() const { return bands_.empty(); }
  uint64_t ios() const;
  // The mean of each part over the IOs of the band that holds quantile
  // `q` in [0, 1] of the IOs' latency (nearest rank), in ns; NaN each
  // when there is no IO.
  std::array<double, 4> PartsAt(double q) const;

 private:
  friend class SplitByLatencyAccumulator;
  std::vector<Band> bands_;
};

// Adds IOs one at a time, or whole splits, into dense per-band sums (about
// 45 KiB), then hands over the sparse SplitByLatency of those added since
// the last Take(). For the tracer's join (an IO costs a few additions) and
// for a run's summary over its intervals.
class SplitByLatencyAccumulator {
 public:
  void Add(const SplitByLatency::Parts& parts);
  // Adds every IO of `split` (merging many intervals: O(their bands)).
  void Add(const SplitByLatency& split);
  SplitByLatency Take();

 private:
  SplitByLatency::Band& Touch(uint32_t index);

  std::vector<SplitByLatency::Band> dense_;
  uint32_t low_ = SplitByLatency::kBands;  // the touched range
  uint32_t high_ = 0;
};

}  // namespace flashmark
