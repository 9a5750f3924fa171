#include "workload/offset_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

namespace flashmark {
namespace {

using test_support::kMiB;

constexpr uint32_t k4K = 4096;

Distribution Dist(DistributionKind kind, double parameter = 0) {
  return Distribution{kind, parameter, {}};
}

std::string Name(const Distribution& distribution) {
  const char* names[] = {"uniform", "zipf", "pareto", "normal", "zoned"};
  return std::string(names[int(distribution.kind)]) + ":" +
         std::to_string(distribution.parameter);
}

std::unique_ptr<OffsetGenerator> RandomOver(const Distribution& distribution,
                                            std::vector<Segment> segments,
                                            uint32_t align, uint32_t max_length,
                                            uint64_t seed = 1) {
  return MakeOffsetGenerator(AccessPattern::kRandom, distribution,
                             std::move(segments), align, max_length, seed);
}

std::unique_ptr<OffsetGenerator> Sequential(std::vector<Segment> segments,
                                            uint32_t align,
                                            uint32_t max_length) {
  return MakeOffsetGenerator(AccessPattern::kSequential, Distribution{},
                             std::move(segments), align, max_length, 1);
}

// True when [offset, offset + length) lies in a segment of that file, at a
// multiple of align from the segment's begin.
bool Fits(const std::vector<Segment>& segments, Location location,
          uint32_t length, uint32_t align) {
  return std::any_of(segments.begin(), segments.end(), [&](const Segment& s) {
    return s.file == location.file && location.offset >= s.begin &&
           location.offset + length <= s.end &&
           (location.offset - s.begin) % align == 0;
  });
}

// One slot per block: a single segment of n blocks, IOs of one block.
std::vector<uint64_t> CountSlots(const Distribution& distribution, uint64_t n,
                                 int draws, uint64_t seed = 7) {
  auto generator = RandomOver(distribution, {{0, 0, n * k4K}}, k4K, k4K, seed);
  std::vector<uint64_t> counts(n);
  for (int i = 0; i < draws; ++i) ++counts[generator->Next(k4K).offset / k4K];
  return counts;
}

// Share of the draws that went to the `top` most drawn blocks.
double TopShare(std::vector<uint64_t> counts, size_t top, int draws) {
  std::partial_sort(counts.begin(), counts.begin() + top, counts.end(),
                    std::greater<>());
  uint64_t sum = 0;
  for (size_t i = 0; i < top; ++i) sum += counts[i];
  return double(sum) / draws;
}

double ZetaSum(uint64_t n, double theta) {
  double sum = 0;
  for (uint64_t i = n; i >= 1; --i) sum += std::pow(double(i), -theta);
  return sum;
}

const std::vector<std::pair<std::string, std::vector<Segment>>>& Layouts() {
  static const auto* layouts =
      new std::vector<std::pair<std::string, std::vector<Segment>>>{
          {"one segment", {{0, 0, 4 * kMiB}}},
          {"three uneven",
           {{0, 0, 256 << 10}, {1, 0, kMiB + (64 << 10)}, {2, 0, 96 << 10}}},
          {"begin not 0",
           {{5, 8192, 8192 + (640 << 10)}, {5, kMiB + 4096, 3 * kMiB}}},
      };
  return *layouts;
}

TEST(OffsetGeneratorTest, EveryKindStaysInRangeAndAligned) {
  const std::vector<Distribution> kinds = {
      Dist(DistributionKind::kUniform),
      Dist(DistributionKind::kZipf, 1.2),
      Dist(DistributionKind::kZipf, 0.8),
      Dist(DistributionKind::kPareto, 0.9),
      Dist(DistributionKind::kPareto, 0.3),
      Dist(DistributionKind::kNormal, 10),
      Dist(DistributionKind::kNormal, 100),
      Distribution{DistributionKind::kZoned, 0, {{60, 10}, {40, 90}}}};
  const uint32_t lengths[] = {k4K, 2 * k4K, 16 * k4K, k4K, k4K};
  for (const auto& [name, segments] : Layouts()) {
    for (int sequential = 0; sequential < 2; ++sequential) {
      for (const Distribution& kind : kinds) {
        SCOPED_TRACE(name + " " + Name(kind) +
                     (sequential ? " sequential" : " random"));
        auto generator = sequential ? Sequential(segments, k4K, 16 * k4K)
                                    : RandomOver(kind, segments, k4K, 16 * k4K);
        for (int i = 0; i < 20000; ++i) {
          const uint32_t length = lengths[i % 5];
          const Location location = generator->Next(length);
          ASSERT_TRUE(Fits(segments, location, length, k4K))
              << "file " << location.file << " offset " << location.offset
              << " length " << length;
        }
      }
    }
  }
}

TEST(OffsetGeneratorTest, SequentialCoversTwoSegmentsInOrderThenWraps) {
  const std::vector<Segment> segments = {{0, 0, 64 << 10}, {1, 8192, 40 << 10}};
  auto generator = Sequential(segments, k4K, k4K);
  for (int lap = 0; lap < 2; ++lap) {
    for (uint64_t i = 0; i < 16; ++i) {
      const Location location = generator->Next(k4K);
      EXPECT_EQ(location.file, 0u);
      EXPECT_EQ(location.offset, i * k4K);
    }
    for (uint64_t i = 0; i < 8; ++i) {
      const Location location = generator->Next(k4K);
      EXPECT_EQ(location.file, 1u);
      EXPECT_EQ(location.offset, 8192 + i * k4K);
    }
  }
}

TEST(OffsetGeneratorTest, SequentialMovesOnWhenTheIoDoesNotFit) {
  // 10 KiB holds two 4 KiB IOs; the third goes to the next segment.
  auto generator = Sequential({{0, 0, 10 << 10}, {1, 0, 8 << 10}}, k4K, k4K);
  const std::vector<std::pair<uint32_t, uint64_t>> expected = {
      {0, 0}, {0, 4096}, {1, 0}, {1, 4096}, {0, 0}};
  for (const auto& [file, offset] : expected) {
    const Location location = generator->Next(k4K);
    EXPECT_EQ(location.file, file);
    EXPECT_EQ(location.offset, offset);
  }
}

TEST(OffsetGeneratorTest, SequentialMixedLengthsAdvanceByLength) {
  auto generator = Sequential({{0, 0, kMiB}}, k4K, 16 * k4K);
  EXPECT_EQ(generator->Next(k4K).offset, 0u);
  EXPECT_EQ(generator->Next(16 * k4K).offset, 4096u);
  EXPECT_EQ(generator->Next(2 * k4K).offset, 4096u + 65536);
  EXPECT_EQ(generator->Next(k4K).offset, 4096u + 65536 + 8192);
}

TEST(OffsetGeneratorTest, SequentialRoundsAnUnalignedLengthUp) {
  auto generator = Sequential({{0, 0, kMiB}}, k4K, 6144);
  EXPECT_EQ(generator->Next(6144).offset, 0u);
  EXPECT_EQ(generator->Next(6144).offset, 8192u);
  EXPECT_EQ(generator->Next(4096).offset, 16384u);
}

TEST(OffsetGeneratorTest, UniformFillsEqualBinsEvenly) {
  constexpr uint64_t kBlocks = 1 << 14;
  constexpr int kBins = 64;
  constexpr int kDraws = 1'000'000;
  const auto counts =
      CountSlots(Dist(DistributionKind::kUniform), kBlocks, kDraws);
  std::vector<double> bins(kBins);
  for (uint64_t i = 0; i < kBlocks; ++i) bins[i * kBins / kBlocks] += counts[i];
  const double expected = double(kDraws) / kBins;
  double chi_square = 0;
  for (double bin : bins) {
    EXPECT_NEAR(bin, expected, 0.03 * expected);
    chi_square += (bin - expected) * (bin - expected) / expected;
  }
  // 63 degrees of freedom: mean 63, the 99.9 % quantile is about 103.
  EXPECT_LT(chi_square, 103);
}

TEST(OffsetGeneratorTest, ZonedSendsEachZoneItsShareUniformly) {
  constexpr uint64_t kBlocks = 10000;
  constexpr int kDraws = 1'000'000;
  Distribution zoned = Dist(DistributionKind::kZoned);
  zoned.zones = {{50, 5}, {30, 15}, {20, 80}};
  const auto counts = CountSlots(zoned, kBlocks, kDraws);
  const auto share = [&](uint64_t begin, uint64_t end) {
    uint64_t sum = 0;
    for (uint64_t i = begin; i < end; ++i) sum += counts[i];
    return double(sum) / kDraws;
  };
  EXPECT_NEAR(share(0, 500), 0.50, 0.005);
  EXPECT_NEAR(share(500, 2000), 0.30, 0.005);
  EXPECT_NEAR(share(2000, kBlocks), 0.20, 0.005);
  // Uniform inside a zone: its two halves get the same.
  EXPECT_NEAR(share(0, 250), share(250, 500), 0.01);
  EXPECT_NEAR(share(2000, 6000), share(6000, kBlocks), 0.01);
  // A zone without accesses gets none.
  zoned.zones = {{0, 50}, {100, 50}};
  const auto cold = CountSlots(zoned, 1000, 10000);
  for (uint64_t i = 0; i < 500; ++i) ASSERT_EQ(cold[i], 0u) << i;
}

TEST(OffsetGeneratorTest, UniformSharesSegmentsBySize) {
  // Slots (4 KiB apart, where 64 KiB still fits): 49, 257 and 9.
  const auto& segments = Layouts()[1].second;
  auto generator =
      RandomOver(Dist(DistributionKind::kUniform), segments, k4K, 16 * k4K);
  constexpr int kDraws = 1'000'000;
  double per_file[3] = {};
  for (int i = 0; i < kDraws; ++i) ++per_file[generator->Next(k4K).file];
  EXPECT_NEAR(per_file[0] / kDraws, 49.0 / 315, 0.003);
  EXPECT_NEAR(per_file[1] / kDraws, 257.0 / 315, 0.003);
  EXPECT_NEAR(per_file[2] / kDraws, 9.0 / 315, 0.003);
}

TEST(OffsetGeneratorTest, UniformOverManyUnevenSegmentsIsProportional) {
  // 50 segments of 1..7 x 64 KiB plus a few KiB, several per guide bucket.
  std::vector<Segment> segments;
  std::vector<double> slots;
  double total = 0;
  for (uint32_t i = 0; i < 50; ++i) {
    const uint64_t begin = 4096 * i;
    const uint64_t bytes = (i % 7 + 1) * (64 << 10) + 4096 * (i % 3);
    segments.push_back({i, begin, begin + bytes});
    slots.push_back(double((bytes - 16 * k4K) / k4K + 1));
    total += slots.back();
  }
  auto generator =
      RandomOver(Dist(DistributionKind::kUniform), segments, k4K, 16 * k4K);
  constexpr int kDraws = 500'000;
  std::vector<double> per_file(50);
  for (int i = 0; i < kDraws; ++i) {
    const Location location = generator->Next(16 * k4K);
    ASSERT_TRUE(Fits(segments, location, 16 * k4K, k4K));
    ++per_file[location.file];
  }
  for (uint32_t i = 0; i < 50; ++i) {
    EXPECT_NEAR(per_file[i] / kDraws, slots[i] / total, 0.002) << i;
  }
}

TEST(OffsetGeneratorTest, UniformReachesEveryBlockOfASmallSpace) {
  // 64 KiB with 16 KiB IOs: slots 0..48 KiB (13); 32 KiB from 4 KiB: 5.
  const std::vector<Segment> segments = {{0, 0, 64 << 10},
                                         {1, 4096, 4096 + (32 << 10)}};
  auto generator =
      RandomOver(Dist(DistributionKind::kUniform), segments, k4K, 4 * k4K);
  std::set<std::pair<uint32_t, uint64_t>> seen;
  for (int i = 0; i < 10000; ++i) {
    const Location location = generator->Next(4 * k4K);
    seen.insert({location.file, location.offset});
  }
  std::set<std::pair<uint32_t, uint64_t>> expected;
  for (uint64_t i = 0; i < 13; ++i) expected.insert({0, i * k4K});
  for (uint64_t i = 0; i < 5; ++i) expected.insert({1, 4096 + i * k4K});
  EXPECT_EQ(seen, expected);
}

TEST(OffsetGeneratorTest, ZipfTopOnePercentGetsThePmfShare) {
  constexpr uint64_t kBlocks = 100'000;
  constexpr int kDraws = 1'000'000;
  for (double theta : {1.2, 0.8}) {
    SCOPED_TRACE(theta);
    const auto counts =
        CountSlots(Dist(DistributionKind::kZipf, theta), kBlocks, kDraws);
    // P(rank i) = i^-theta / zeta(n), so the top k take zeta(k) / zeta(n).
    const double expected =
        ZetaSum(kBlocks / 100, theta) / ZetaSum(kBlocks, theta);
    EXPECT_NEAR(TopShare(counts, kBlocks / 100, kDraws), expected, 0.02);
  }
}

TEST(OffsetGeneratorTest, ZipfHottestBlocksMatchZetaOfALargeSpace) {
  // 4 M blocks: zeta(n) goes past the exactly summed terms.
  constexpr uint64_t kBlocks = 4 << 20;
  constexpr int kDraws = 1'000'000;
  const auto counts =
      CountSlots(Dist(DistributionKind::kZipf, 1.2), kBlocks, kDraws);
  const double zeta = ZetaSum(kBlocks, 1.2);
  const double top1 = TopShare(counts, 1, kDraws);
  const double top2 = TopShare(counts, 2, kDraws) - top1;
  EXPECT_NEAR(top1, 1 / zeta, 0.003);
  EXPECT_NEAR(top2, std::pow(2, -1.2) / zeta, 0.003);
}

TEST(OffsetGeneratorTest, ZipfScattersTheHotBlocks) {
  constexpr uint64_t kBlocks = 100'000;
  auto counts =
      CountSlots(Dist(DistributionKind::kZipf, 1.2), kBlocks, 200'000);
  std::vector<uint64_t> order(kBlocks);
  for (uint64_t i = 0; i < kBlocks; ++i) order[i] = i;
  std::partial_sort(
      order.begin(), order.begin() + 100, order.end(),
      [&](uint64_t a, uint64_t b) { return counts[a] > counts[b]; });
  // The 100 hottest blocks spread over the space: about 10 in each tenth.
  int in_first_tenth = 0;
  for (int i = 0; i < 100; ++i) in_first_tenth += order[i] < kBlocks / 10;
  EXPECT_LT(in_first_tenth, 30);
}

TEST(OffsetGeneratorTest, ParetoHotFractionGetsTheRest) {
  // pareto:h sends 1 - f of the accesses to the hottest f = min(h, 1-h).
  constexpr uint64_t kBlocks = 10'000;
  constexpr int kDraws = 1'000'000;
  for (double h : {0.9, 0.8, 0.2}) {
    SCOPED_TRACE(h);
    const double f = std::min(h, 1 - h);
    const auto counts =
        CountSlots(Dist(DistributionKind::kPareto, h), kBlocks, kDraws);
    EXPECT_NEAR(TopShare(counts, size_t(f * kBlocks), kDraws), 1 - f, 0.02);
  }
}

TEST(OffsetGeneratorTest, NormalPutsTwoThirdsWithinOneStddev) {
  constexpr uint64_t kBlocks = 1'000'000;
  constexpr int kDraws = 1'000'000;
  auto generator = RandomOver(Dist(DistributionKind::kNormal, 10),
                              {{0, 0, kBlocks * k4K}}, k4K, k4K);
  int within = 0;
  int left = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double block = double(generator->Next(k4K).offset / k4K) + 0.5;
    within += std::abs(block - kBlocks / 2.0) < 0.1 * kBlocks;
    left += block < kBlocks / 2.0;
  }
  EXPECT_NEAR(double(within) / kDraws, 0.6827, 0.005);
  EXPECT_NEAR(double(left) / kDraws, 0.5, 0.005);
}

TEST(OffsetGeneratorTest, SameSeedSameSequenceOtherSeedDiffers) {
  const auto& segments = Layouts()[1].second;
  for (const Distribution& kind :
       {Dist(DistributionKind::kUniform), Dist(DistributionKind::kZipf, 1.2),
        Dist(DistributionKind::kPareto, 0.9),
        Dist(DistributionKind::kNormal, 20)}) {
    SCOPED_TRACE(Name(kind));
    auto a = RandomOver(kind, segments, k4K, 16 * k4K, 42);
    auto b = RandomOver(kind, segments, k4K, 16 * k4K, 42);
    auto c = RandomOver(kind, segments, k4K, 16 * k4K, 43);
    int differences = 0;
    for (int i = 0; i < 1000; ++i) {
      const Location x = a->Next(k4K);
      const Location y = b->Next(k4K);
      const Location z = c->Next(k4K);
      ASSERT_EQ(x.file, y.file);
      ASSERT_EQ(x.offset, y.offset);
      differences += x.file != z.file || x.offset != z.offset;
    }
    EXPECT_GT(differences, 100);
  }
}

}  // namespace
}  // namespace flashmark
