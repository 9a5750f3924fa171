#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "model/histogram_buckets.h"
#include "model/latency_histogram.h"
#include "model/live_histogram.h"

namespace flashmark {
namespace {

using buckets::IndexOf;
using buckets::kCount;
using buckets::kMaxExact;
using buckets::kMaxRelativeError;
using buckets::LowerBound;
using buckets::Midpoint;
using buckets::UpperBound;

std::vector<std::pair<uint32_t, uint64_t>> BucketPairs(
    const LatencyHistogram& histogram) {
  std::vector<std::pair<uint32_t, uint64_t>> pairs;
  for (const LatencyHistogram::Bucket& bucket : histogram.buckets()) {
    pairs.emplace_back(bucket.index, bucket.count);
  }
  return pairs;
}

// Checks that `ns` lands in a bucket that contains it and whose midpoint is
// within the stated relative error.
void ExpectWithinBound(uint64_t ns) {
  const uint32_t index = IndexOf(ns);
  ASSERT_LT(index, kCount) << ns;
  ASSERT_LE(LowerBound(index), ns) << ns;
  ASSERT_GE(UpperBound(index), ns) << ns;
  const double midpoint = Midpoint(index);
  if (ns == 0) {
    ASSERT_EQ(midpoint, 0);
  } else {
    ASSERT_LE(
        std::abs(midpoint - static_cast<double>(ns)) / static_cast<double>(ns),
        kMaxRelativeError)
        << ns;
  }
}

TEST(HistogramBucketsTest, LayoutByHand) {
  EXPECT_EQ(kCount, 17920u);                 // 1024 exact + 33 octaves of 512
  EXPECT_EQ(kMaxExact, 8'796'093'022'207u);  // 2^43 - 1 ns, 2 h 26 min
  EXPECT_EQ(IndexOf(0), 0u);
  EXPECT_EQ(IndexOf(1023), 1023u);
  EXPECT_EQ(IndexOf(1024), 1024u);
  EXPECT_EQ(IndexOf(1025), 1024u);  // 2^10 octave: 2 ns wide
  EXPECT_EQ(IndexOf(1026), 1025u);
  EXPECT_EQ(IndexOf(2048), 1536u);  // 2^11 octave: 4 ns wide
  EXPECT_EQ(UpperBound(1536), 2051u);
  EXPECT_EQ(LowerBound(kCount - 1), 1023ull << 33);
  EXPECT_EQ(UpperBound(kCount - 1), kMaxExact);
  EXPECT_EQ(Midpoint(100), 100.0);
  EXPECT_EQ(Midpoint(1024), 1024.5);
}

TEST(HistogramBucketsTest, BoundariesAreContiguous) {
  EXPECT_EQ(LowerBound(0), 0u);
  for (uint32_t i = 0; i + 1 < kCount; ++i) {
    ASSERT_EQ(UpperBound(i) + 1, LowerBound(i + 1)) << i;
    ASSERT_LE(LowerBound(i), UpperBound(i)) << i;
    ASSERT_EQ(IndexOf(LowerBound(i)), i) << i;
    ASSERT_EQ(IndexOf(UpperBound(i)), i) << i;
  }
}

TEST(HistogramBucketsTest, EveryBucketEdgeWithinBound) {
  for (uint32_t i = 0; i < kCount; ++i) {
    ExpectWithinBound(LowerBound(i));
    ExpectWithinBound(UpperBound(i));
  }
}

TEST(HistogramBucketsTest, SmallValuesExactAndWithinBound) {
  for (uint64_t ns = 0; ns <= 5000; ++ns) {
    ExpectWithinBound(ns);
    if (ns < 1024) {
      ASSERT_EQ(IndexOf(ns), ns);
      ASSERT_EQ(Midpoint(IndexOf(ns)), static_cast<double>(ns));
    }
    if (ns > 0) {
      ASSERT_LE(IndexOf(ns - 1), IndexOf(ns));
    }
  }
}

TEST(HistogramBucketsTest, LogUniformValuesOverTheWholeRange) {
  std::mt19937_64 random(42);
  const double log_max = std::log(static_cast<double>(kMaxExact));
  std::uniform_real_distribution<double> exponent(0, log_max);
  std::vector<uint64_t> values;
  values.reserve(2'000'000);
  for (int i = 0; i < 2'000'000; ++i) {
    const uint64_t ns = static_cast<uint64_t>(std::exp(exponent(random)));
    values.push_back(std::clamp<uint64_t>(ns, 1, kMaxExact));
  }
  std::sort(values.begin(), values.end());
  EXPECT_LT(values.front(), 2u);
  EXPECT_GT(values.back(), kMaxExact / 2);
  uint32_t previous = 0;
  for (uint64_t ns : values) {
    ExpectWithinBound(ns);
    const uint32_t index = IndexOf(ns);
    ASSERT_GE(index, previous) << ns;  // monotonic
    previous = index;
  }
}

TEST(HistogramBucketsTest, ValuesBeyondTheRangeLandInTheLastBucket) {
  EXPECT_EQ(IndexOf(kMaxExact), kCount - 1);
  EXPECT_EQ(IndexOf(kMaxExact + 1), kCount - 1);
  EXPECT_EQ(IndexOf(1ull << 50), kCount - 1);
  EXPECT_EQ(IndexOf(std::numeric_limits<uint64_t>::max()), kCount - 1);
}

TEST(LatencyHistogramTest, EmptyHistogram) {
  const LatencyHistogram empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.count(), 0u);
  EXPECT_EQ(empty.Quantile(0.5), 0);
  EXPECT_EQ(empty.Mean(), 0);
  EXPECT_EQ(empty.Min(), 0);
  EXPECT_EQ(empty.Max(), 0);
}

TEST(LatencyHistogramTest, SmallExactValuesByHand) {
  LatencyHistogram histogram;
  histogram.Add(300);
  histogram.Add(100);
  histogram.Add(200);
  histogram.Add(100, 0);  // no-op
  EXPECT_EQ(histogram.count(), 3u);
  EXPECT_EQ(BucketPairs(histogram), (std::vector<std::pair<uint32_t, uint64_t>>{
                                        {100, 1}, {200, 1}, {300, 1}}));
  EXPECT_EQ(histogram.Quantile(0), 100);     // rank 1
  EXPECT_EQ(histogram.Quantile(0.33), 100);  // ceil(0.99) = 1
  EXPECT_EQ(histogram.Quantile(0.34), 200);  // ceil(1.02) = 2
  EXPECT_EQ(histogram.Quantile(0.5), 200);   // ceil(1.5) = 2
  EXPECT_EQ(histogram.Quantile(0.67), 300);  // ceil(2.01) = 3
  EXPECT_EQ(histogram.Quantile(1), 300);
  EXPECT_EQ(histogram.Mean(), 200);
  EXPECT_EQ(histogram.Min(), 100);
  EXPECT_EQ(histogram.Max(), 300);
}

TEST(LatencyHistogramTest, AddWithCountsAndLogLinearBuckets) {
  LatencyHistogram histogram;
  histogram.Add(50'000, 3);  // bucket [49984, 50047], midpoint 50015.5
  histogram.Add(10, 1);
  histogram.Add(50'010, 2);  // same bucket
  EXPECT_EQ(histogram.count(), 6u);
  ASSERT_EQ(histogram.buckets().size(), 2u);
  EXPECT_EQ(histogram.buckets()[1].count, 5u);
  EXPECT_EQ(histogram.Min(), 10);
  EXPECT_EQ(histogram.Max(), 50'047);
  EXPECT_EQ(histogram.Quantile(0.5), 50'015.5);
  EXPECT_DOUBLE_EQ(histogram.Mean(), (10 + 5 * 50'015.5) / 6);
}

TEST(LatencyHistogramTest, QuantilesOfAUniformFillMatchExactOnes) {
  constexpr uint64_t kN = 100'000;
  LatencyHistogram histogram;
  for (uint64_t ns = 1; ns <= kN; ++ns) histogram.Add(ns);
  EXPECT_EQ(histogram.count(), kN);
  for (double q : {0.0, 0.00001, 0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.9, 0.95,
                   0.99, 0.999, 0.9999, 1.0}) {
    const double exact = std::max(1.0, std::ceil(q * kN));  // nearest rank
    EXPECT_LE(std::abs(histogram.Quantile(q) - exact) / exact,
              kMaxRelativeError)
        << "q=" << q << " got " << histogram.Quantile(q);
  }
  // By hand: 50000 is in [49984, 50047]; 100000 in [99968, 100095].
  EXPECT_EQ(histogram.Quantile(0.5), 50'015.5);
  EXPECT_EQ(histogram.Quantile(1.0), 100'031.5);
  EXPECT_EQ(histogram.Quantile(0), 1);
  EXPECT_EQ(histogram.Min(), 1);
  EXPECT_EQ(histogram.Max(), 100'095);
  EXPECT_NEAR(histogram.Mean(), 50'000.5, 50'000.5 * kMaxRelativeError);
}

TEST(LatencyHistogramTest, QuantilesOverWideRangeWithinBound) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> exponent(
      0, std::log(static_cast<double>(kMaxExact)));
  std::vector<uint64_t> values;
  LatencyHistogram histogram;
  for (int i = 0; i < 100'000; ++i) {
    values.push_back(static_cast<uint64_t>(std::exp(exponent(random))));
    histogram.Add(values.back());
  }
  std::sort(values.begin(), values.end());
  for (double q : {0.0, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0}) {
    const uint64_t rank = std::max<uint64_t>(
        1, static_cast<uint64_t>(
               std::ceil(q * static_cast<double>(values.size()))));
    const double exact = static_cast<double>(values[rank - 1]);
    EXPECT_LE(std::abs(histogram.Quantile(q) - exact) / exact,
              kMaxRelativeError)
        << "q=" << q;
  }
}

TEST(LatencyHistogramTest, HugeValuesCountInTheLastBucket) {
  LatencyHistogram histogram;
  histogram.Add(std::numeric_limits<uint64_t>::max());
  histogram.Add(kMaxExact + 1);
  ASSERT_EQ(histogram.buckets().size(), 1u);
  EXPECT_EQ(histogram.buckets()[0].index, kCount - 1);
  EXPECT_EQ(histogram.buckets()[0].count, 2u);
  EXPECT_EQ(histogram.Max(), static_cast<double>(kMaxExact));
}

// Three overlapping sets of values, and the histogram of their union.
struct Parts {
  std::vector<LatencyHistogram> parts;
  LatencyHistogram all;
};

Parts MakeParts(int part_count, int values_per_part) {
  Parts result;
  std::mt19937_64 random(part_count);
  std::uniform_real_distribution<double> exponent(0, 30);
  for (int p = 0; p < part_count; ++p) {
    LatencyHistogram part;
    for (int i = 0; i < values_per_part; ++i) {
      const uint64_t ns = static_cast<uint64_t>(std::exp(exponent(random)));
      part.Add(ns);
      result.all.Add(ns);
    }
    result.parts.push_back(std::move(part));
  }
  return result;
}

TEST(LatencyHistogramTest, MergeEqualsHistogramOfTheUnion) {
  const Parts parts = MakeParts(3, 5'000);
  LatencyHistogram merged;
  for (const LatencyHistogram& part : parts.parts) merged.Merge(part);
  EXPECT_EQ(merged.count(), 15'000u);
  EXPECT_EQ(BucketPairs(merged), BucketPairs(parts.all));
  LatencyHistogram copy = parts.parts[0];
  copy.Merge(LatencyHistogram());
  EXPECT_EQ(BucketPairs(copy), BucketPairs(parts.parts[0]));
  EXPECT_EQ(copy.count(), 5'000u);
}

TEST(LatencyHistogramTest, MergeAllEqualsHistogramOfTheUnion) {
  Parts parts = MakeParts(2'000, 50);
  parts.parts.emplace_back();  // an empty part changes nothing
  const LatencyHistogram merged = LatencyHistogram::MergeAll(parts.parts);
  EXPECT_EQ(merged.count(), 100'000u);
  EXPECT_EQ(BucketPairs(merged), BucketPairs(parts.all));
  EXPECT_EQ(merged.Quantile(0.99), parts.all.Quantile(0.99));
  EXPECT_TRUE(LatencyHistogram::MergeAll({}).empty());
}

TEST(LatencyHistogramTest, DenseAndSparseRoundTrip) {
  const Parts parts = MakeParts(1, 20'000);
  const LatencyHistogram& original = parts.all;
  std::vector<uint64_t> dense(kCount, 0);
  for (const LatencyHistogram::Bucket& bucket : original.buckets()) {
    dense[bucket.index] = bucket.count;
  }
  const LatencyHistogram from_dense = LatencyHistogram::FromDense(dense);
  EXPECT_EQ(BucketPairs(from_dense), BucketPairs(original));
  EXPECT_EQ(from_dense.count(), original.count());
  const LatencyHistogram from_buckets =
      LatencyHistogram::FromBuckets(original.buckets());
  EXPECT_EQ(BucketPairs(from_buckets), BucketPairs(original));
  EXPECT_EQ(from_buckets.count(), original.count());
  // A shorter dense vector is fine.
  const std::vector<uint64_t> short_dense = {0, 2, 0, 5};
  const LatencyHistogram small = LatencyHistogram::FromDense(short_dense);
  EXPECT_EQ(BucketPairs(small),
            (std::vector<std::pair<uint32_t, uint64_t>>{{1, 2}, {3, 5}}));
  EXPECT_EQ(small.count(), 7u);
}

TEST(LatencyHistogramTest, FromBucketsNormalisesBrokenInput) {
  const LatencyHistogram histogram =
      LatencyHistogram::FromBuckets({{7, 1}, {3, 2}, {7, 4}, {5, 0}});
  EXPECT_EQ(BucketPairs(histogram),
            (std::vector<std::pair<uint32_t, uint64_t>>{{3, 2}, {7, 5}}));
  EXPECT_EQ(histogram.count(), 7u);
}

TEST(LiveHistogramTest, RecordAndSnapshot) {
  LiveHistogram live;
  std::vector<uint64_t> snapshot;
  live.Snapshot(snapshot);
  ASSERT_EQ(snapshot.size(), kCount);
  EXPECT_EQ(std::count(snapshot.begin(), snapshot.end(), 0u),
            static_cast<long>(kCount));
  EXPECT_EQ(live.max_ns(), 0u);

  live.Record(5);
  live.Record(5);
  live.Record(2000);
  live.Record(1ull << 45);  // beyond the range: last bucket, exact max
  live.Record(700);
  live.Snapshot(snapshot);
  EXPECT_EQ(snapshot[5], 2u);
  EXPECT_EQ(snapshot[700], 1u);
  EXPECT_EQ(snapshot[IndexOf(2000)], 1u);
  EXPECT_EQ(snapshot[kCount - 1], 1u);
  uint64_t total = 0;
  for (uint64_t count : snapshot) total += count;
  EXPECT_EQ(total, 5u);
  EXPECT_EQ(live.max_ns(), 1ull << 45);
  const LatencyHistogram histogram = LatencyHistogram::FromDense(snapshot);
  EXPECT_EQ(histogram.count(), 5u);
  EXPECT_EQ(histogram.Quantile(0.5), 700);
}

// A cheap, repeatable stream of values spread over the whole range.
uint64_t NthValue(uint64_t& state) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (state >> 20) >> ((state >> 1) % 44);  // 0 .. 2^44: some beyond
}

TEST(LiveHistogramTest, ConcurrentSnapshotsAreMonotonicAndFinalIsExact) {
  constexpr uint64_t kRecords = 10'000'000;
  LiveHistogram live;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    uint64_t state = 1;
    for (uint64_t i = 0; i < kRecords; ++i) live.Record(NthValue(state));
    done.store(true, std::memory_order_release);
  });

  std::vector<uint64_t> previous(kCount, 0);
  std::vector<uint64_t> current;
  int snapshots = 0;
  uint64_t previous_total = 0;
  while (!done.load(std::memory_order_acquire)) {
    live.Snapshot(current);
    uint64_t total = 0;
    for (uint32_t i = 0; i < kCount; ++i) {
      ASSERT_GE(current[i], previous[i]) << "bucket " << i;
      total += current[i];
    }
    ASSERT_GE(total, previous_total);
    ASSERT_LE(total, kRecords);
    previous_total = total;
    previous.swap(current);
    ++snapshots;
  }
  writer.join();

  std::vector<uint64_t> expected(kCount, 0);
  uint64_t state = 1;
  uint64_t max_ns = 0;
  for (uint64_t i = 0; i < kRecords; ++i) {
    const uint64_t ns = NthValue(state);
    ++expected[IndexOf(ns)];
    max_ns = std::max(max_ns, ns);
  }
  live.Snapshot(current);
  EXPECT_EQ(current, expected);
  EXPECT_EQ(live.max_ns(), max_ns);
  EXPECT_GT(expected[kCount - 1], 0u);  // the stream reached the last bucket
  EXPECT_GT(snapshots, 0);
  RecordProperty("snapshots", snapshots);
}

}  // namespace
}  // namespace flashmark
