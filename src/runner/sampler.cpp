#include "runner/sampler.h"

#include <algorithm>

namespace flashmark {

Sampler::Sampler(std::vector<const WorkerMeasures*> workers)
    : workers_(std::move(workers)),
      previous_(workers_.size()),
      sum_(buckets::kCount, 0) {}

uint64_t& Sampler::SeenCounts::operator[](uint32_t index) {
  std::unique_ptr<std::array<uint64_t, 64>>& block = blocks_[index / 64];
  if (!block) block = std::make_unique<std::array<uint64_t, 64>>();
  return (*block)[index % 64];
}

LatencyHistogram Sampler::Delta(const LiveHistogram WorkerMeasures::*which,
                                SeenCounts Snapshot::*seen) {
  touched_.clear();
  for (size_t w = 0; w < workers_.size(); ++w) {
    SeenCounts& before = previous_[w].*seen;
    (workers_[w]->*which).ForEachBucket([&](uint32_t index, uint64_t now) {
      uint64_t& then = before[index];
      const uint64_t delta = now - then;
      then = now;
      if (delta == 0) return;
      if (sum_[index] == 0) touched_.push_back(index);
      sum_[index] += delta;
    });
  }
  std::sort(touched_.begin(), touched_.end());
  std::vector<LatencyHistogram::Bucket> buckets;
  buckets.reserve(touched_.size());
  for (uint32_t index : touched_) {
    buckets.push_back({index, sum_[index]});
    sum_[index] = 0;
  }
  return LatencyHistogram::FromBuckets(std::move(buckets));
}

IntervalSample Sampler::Take(uint32_t index, uint64_t start_ns,
                             uint64_t end_ns) {
  IntervalSample sample;
  sample.index = index;
  sample.start_ns = start_ns;
  sample.end_ns = end_ns;
  // Counters first, histograms after: a worker records an IO in its
  // histogram before its counters (release), so what the counters show
  // (acquire) is already in the histograms; counters never run ahead.
  for (size_t w = 0; w < workers_.size(); ++w) {
    const WorkerMeasures& m = *workers_[w];
    Snapshot& before = previous_[w];
    auto take = [](uint64_t now, uint64_t& then) {
      const uint64_t delta = now - then;
      then = now;
      return delta;
    };
    const IoTally::Totals reads = m.reads.Load();
    const IoTally::Totals writes = m.writes.Load();
    sample.read.ios += take(reads.ios, before.read_ios);
    sample.read.bytes += take(reads.bytes, before.read_bytes);
    sample.write.ios += take(writes.ios, before.write_ios);
    sample.write.bytes += take(writes.bytes, before.write_bytes);
    sample.fsyncs += take(m.fsyncs.Load(), before.fsyncs);
    sample.errors += take(m.errors.Load(), before.errors);
    VerifyCounts& seen = before.verify;
    sample.verify.checked += take(m.verify_checked.Load(), seen.checked);
    sample.verify.torn += take(m.verify_torn.Load(), seen.torn);
    sample.verify.misdirected +=
        take(m.verify_misdirected.Load(), seen.misdirected);
    sample.verify.lost += take(m.verify_lost.Load(), seen.lost);
    sample.verify.newer += take(m.verify_newer.Load(), seen.newer);
  }
  sample.read_latency = Delta(&WorkerMeasures::read_latency, &Snapshot::read);
  sample.write_latency =
      Delta(&WorkerMeasures::write_latency, &Snapshot::write);
  sample.schedule_latency =
      Delta(&WorkerMeasures::schedule_latency, &Snapshot::schedule);
  sample.commit_latency =
      Delta(&WorkerMeasures::commit_latency, &Snapshot::commit);
  return sample;
}

}  // namespace flashmark
