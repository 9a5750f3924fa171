// Sampler: turns the workers' cumulative counters and histograms into
// per-interval deltas. Threading: Take() runs on one thread (the runner's)
// while workers keep writing; it keeps its own record of what it saw of
// every worker, so no worker state is ever reset or locked.
// Cost: a histogram's delta visits only the buckets its worker ever
// recorded into (LiveHistogram's bitmap), and what the sampler remembers
// of a histogram grows with those buckets, 64 at a time: with 64 workers a
// Take costs tens of microseconds, and starting costs no memory per bucket.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/interval_sample.h"
#include "runner/worker_measures.h"

namespace flashmark {

class Sampler {
 public:
  explicit Sampler(std::vector<const WorkerMeasures*> workers);

  // Everything the workers did since the previous Take() (or since they
  // started), stamped with the given interval bounds (ns since run start):
  // the instants the previous and this snapshot were taken (SamplingLoop).
  IntervalSample Take(uint32_t index, uint64_t start_ns, uint64_t end_ns);

 private:
  // The cumulative count of each bucket of one LiveHistogram as last seen,
  // in blocks of 64 buckets made when one of theirs is first seen.
  class SeenCounts {
   public:
    uint64_t& operator[](uint32_t index);

   private:
    std::vector<std::unique_ptr<std::array<uint64_t, 64>>> blocks_ =
        std::vector<std::unique_ptr<std::array<uint64_t, 64>>>(
            LiveHistogram::kWords);
  };
  struct Snapshot {
    uint64_t read_ios = 0, read_bytes = 0, write_ios = 0, write_bytes = 0;
    uint64_t fsyncs = 0, errors = 0;
    VerifyCounts verify;
    SeenCounts read, write, schedule, commit;
  };
  LatencyHistogram Delta(const LiveHistogram WorkerMeasures::*which,
                         SeenCounts Snapshot::*seen);

  std::vector<const WorkerMeasures*> workers_;
  std::vector<Snapshot> previous_;
  std::vector<uint64_t> sum_;      // scratch: summed deltas, zero between
  std::vector<uint32_t> touched_;  // scratch: buckets of sum_ in use
};

}  // namespace flashmark
