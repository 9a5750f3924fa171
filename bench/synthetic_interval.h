// The synthetic interval the week-long benches share (synthetic_run,
// live_view_cost): second i of a `count`-second random-write run whose
// throughput decays from 500 to 300 MiB/s (30 min time constant), drops by
// a fifth after two thirds of the run, with 5 % noise; 16 KiB IOs and a
// write latency histogram of ~200 log-normal buckets around 300 us.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/random.h"
#include "model/interval_sample.h"

namespace flashmark {

inline IntervalSample SyntheticInterval(uint32_t i, uint32_t count,
                                        Random& random) {
  const double t = i;
  double mibs = 300 + 200 * std::exp(-t / 1800.0);
  if (i > count * 2 / 3) mibs *= 0.8;
  mibs *= 1 + 0.05 * (random.Unit() * 2 - 1);
  IntervalSample sample;
  sample.index = i;
  sample.start_ns = i * 1'000'000'000ull;
  sample.end_ns = (i + 1) * 1'000'000'000ull;
  sample.write.ios = static_cast<uint64_t>(mibs * 64);  // 16 KiB IOs
  sample.write.bytes = sample.write.ios * 16384;
  for (int k = 0; k < 200; ++k) {
    const double latency = 300'000 * std::exp(random.Unit() * 2 - 1);
    sample.write_latency.Add(static_cast<uint64_t>(latency),
                             sample.write.ios / 200);
  }
  return sample;
}

}  // namespace flashmark
