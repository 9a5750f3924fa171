#include "runner/sampler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace flashmark {
namespace {

TEST(Sampler, TakesDeltasSummedOverWorkers) {
  WorkerMeasures a, b;
  Sampler sampler({&a, &b});
  for (int i = 0; i < 3; ++i) a.reads.Add(4096);
  a.read_latency.Record(100);
  a.read_latency.Record(100);
  a.read_latency.Record(5000);
  for (int i = 0; i < 2; ++i) b.writes.Add(4096);
  b.write_latency.Record(700);
  b.write_latency.Record(900);
  b.fsyncs.Add(1);

  IntervalSample first = sampler.Take(0, 0, 1'000'000'000);
  EXPECT_EQ(first.index, 0u);
  EXPECT_EQ(first.read.ios, 3u);
  EXPECT_EQ(first.read.bytes, 3u * 4096);
  EXPECT_EQ(first.write.ios, 2u);
  EXPECT_EQ(first.fsyncs, 1u);
  EXPECT_EQ(first.read_latency.count(), 3u);
  EXPECT_EQ(first.write_latency.count(), 2u);
  EXPECT_DOUBLE_EQ(first.read_latency.Quantile(0.5), 100);
  EXPECT_DOUBLE_EQ(first.Iops(), 5.0);
  EXPECT_DOUBLE_EQ(first.ReadMiBs(), 3 * 4096 / 1048576.0);

  a.reads.Add(4096);
  a.read_latency.Record(42);
  IntervalSample second = sampler.Take(1, 1'000'000'000, 2'000'000'000);
  EXPECT_EQ(second.read.ios, 1u);
  EXPECT_EQ(second.write.ios, 0u);
  EXPECT_EQ(second.fsyncs, 0u);
  EXPECT_EQ(second.read_latency.count(), 1u);
  EXPECT_DOUBLE_EQ(second.read_latency.Quantile(1.0), 42);
  EXPECT_TRUE(second.write_latency.empty());

  IntervalSample idle = sampler.Take(2, 2'000'000'000, 3'000'000'000);
  EXPECT_EQ(idle.read.ios + idle.write.ios, 0u);
  EXPECT_TRUE(idle.read_latency.empty());
}

// The sparse reading (only the buckets each worker touched, remembered 64
// at a time) gives exactly the histogram of the IOs recorded in the
// interval, bucket for bucket, across the whole range and many workers.
TEST(Sampler, SparseDeltasEqualTheIntervalsOwnHistogramExactly) {
  constexpr int kWorkers = 8;
  std::vector<WorkerMeasures> workers(kWorkers);
  std::vector<const WorkerMeasures*> pointers;
  for (const WorkerMeasures& worker : workers) pointers.push_back(&worker);
  Sampler sampler(pointers);
  std::mt19937_64 random(45);
  for (uint32_t interval = 0; interval < 20; ++interval) {
    LatencyHistogram expected;
    // From 1 ns to about 10 minutes, log-uniform, and the extremes.
    const int ios = interval == 7 ? 0 : 5000;
    for (int i = 0; i < ios; ++i) {
      const double exponent =
          std::uniform_real_distribution<double>(0, 11.8)(random);
      uint64_t ns = static_cast<uint64_t>(std::pow(10.0, exponent));
      if (i == 0) ns = 0;
      if (i == 1) ns = UINT64_MAX / 2;
      WorkerMeasures& worker = workers[random() % kWorkers];
      worker.read_latency.Record(ns);
      worker.reads.Add(4096);
      expected.Add(ns);
    }
    const IntervalSample sample =
        sampler.Take(interval, interval * 1'000'000'000ull,
                     (interval + 1) * 1'000'000'000ull);
    EXPECT_EQ(sample.read.ios, static_cast<uint64_t>(ios));
    ASSERT_EQ(sample.read_latency.buckets().size(), expected.buckets().size())
        << "interval " << interval;
    for (size_t b = 0; b < expected.buckets().size(); ++b) {
      EXPECT_EQ(sample.read_latency.buckets()[b].index,
                expected.buckets()[b].index);
      EXPECT_EQ(sample.read_latency.buckets()[b].count,
                expected.buckets()[b].count);
    }
  }
}

TEST(Sampler, ConcurrentWriterLosesNothing) {
  WorkerMeasures worker;
  Sampler sampler({&worker});
  constexpr uint64_t kIos = 2'000'000;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (uint64_t i = 0; i < kIos; ++i) {
      worker.read_latency.Record(100 + i % 5000);
      worker.reads.Add(4096);
    }
    done = true;
  });
  uint64_t ios = 0, histogram = 0;
  uint32_t index = 0;
  while (!done) {
    IntervalSample sample = sampler.Take(index++, 0, 1);
    ios += sample.read.ios;
    histogram += sample.read_latency.count();
    EXPECT_LE(ios, histogram) << "counters never run ahead of histograms";
    // An IO's count and bytes are read together (CI once saw an interval
    // one IO short in bytes and the next one IO over).
    ASSERT_EQ(sample.read.bytes, sample.read.ios * 4096)
        << "interval " << index;
  }
  writer.join();
  IntervalSample last = sampler.Take(index, 0, 1);
  ios += last.read.ios;
  histogram += last.read_latency.count();
  EXPECT_EQ(ios, kIos);
  EXPECT_EQ(histogram, kIos);
}

}  // namespace
}  // namespace flashmark
