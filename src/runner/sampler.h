// Sampler: turns the workers' cumulative counters and histograms into
// per-interval deltas. Threading: Take() runs on one thread (the runner's)
// while workers keep writing; it keeps its own previous snapshot of every
// worker, so no worker state is ever reset or locked.
#pragma once

#include <cstdint>
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
  struct Snapshot {
    uint64_t read_ios = 0, read_bytes = 0, write_ios = 0, write_bytes = 0;
    uint64_t fsyncs = 0, errors = 0;
    VerifyCounts verify;
    std::vector<uint64_t> read, write, schedule;
  };
  LatencyHistogram Delta(const LiveHistogram WorkerMeasures::*which,
                         std::vector<uint64_t> Snapshot::*previous);

  std::vector<const WorkerMeasures*> workers_;
  std::vector<Snapshot> previous_;
  std::vector<uint64_t> current_;  // scratch: one worker's snapshot
  std::vector<uint64_t> sum_;      // scratch: summed deltas
};

}  // namespace flashmark
