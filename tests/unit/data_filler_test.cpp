#include "workload/data_filler.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "common/random.h"

namespace flashmark {
namespace {

constexpr size_t kFillBytes = 16 << 10;
constexpr size_t kTotal = 1 << 20;

// 1 MiB filled in 16 KiB blocks (8-byte aligned, as write buffers are).
std::vector<uint64_t> FillMiB(const DataPattern& pattern, uint64_t seed = 1) {
  DataFiller filler(pattern, seed);
  std::vector<uint64_t> words(kTotal / 8);
  auto* bytes = reinterpret_cast<unsigned char*>(words.data());
  for (size_t at = 0; at < kTotal; at += kFillBytes)
    filler.Fill(bytes + at, kFillBytes);
  return words;
}

// zlib level 6, compressed size / original size.
double CompressionRatio(const std::vector<uint64_t>& words) {
  const uLong size = words.size() * 8;
  std::vector<Bytef> out(compressBound(size));
  uLongf out_size = out.size();
  EXPECT_EQ(compress2(out.data(), &out_size,
                      reinterpret_cast<const Bytef*>(words.data()), size, 6),
            Z_OK);
  return double(out_size) / double(size);
}

TEST(DataFillerTest, RandomDoesNotCompress) {
  EXPECT_GE(CompressionRatio(FillMiB({DataKind::kRandom, 0})), 0.99);
}

TEST(DataFillerTest, ZeroIsAllZeroAndCompressesAway) {
  std::vector<uint64_t> words(kTotal / 8, ~uint64_t{0});
  DataFiller filler({DataKind::kZero, 0}, 1);
  filler.Fill(words.data(), kTotal);
  EXPECT_TRUE(std::all_of(words.begin(), words.end(),
                          [](uint64_t w) { return w == 0; }));
  EXPECT_LT(CompressionRatio(words), 0.01);
  EXPECT_FALSE(filler.refreshes());
}

TEST(DataFillerTest, CompressibleShrinksByItsPercent) {
  for (int percent : {0, 25, 50, 75, 90}) {
    SCOPED_TRACE(percent);
    const double ratio =
        CompressionRatio(FillMiB({DataKind::kCompressible, percent}));
    EXPECT_NEAR(ratio, (100 - percent) / 100.0, 0.03);
  }
}

TEST(DataFillerTest, CompressibleZeroesTheStartOfEach4KiBUnit) {
  const auto words = FillMiB({DataKind::kCompressible, 25});
  const auto* bytes = reinterpret_cast<const unsigned char*>(words.data());
  for (size_t unit = 0; unit < kTotal; unit += 4096) {
    ASSERT_TRUE(std::all_of(bytes + unit, bytes + unit + 1024,
                            [](unsigned char b) { return b == 0; }));
    // The random rest: a zero 8-byte word there has odds 2^-64.
    uint64_t first_random;
    std::memcpy(&first_random, bytes + unit + 1024, 8);
    ASSERT_NE(first_random, 0u);
  }
}

TEST(DataFillerTest, RandomRefreshesOnEveryFill) {
  DataFiller filler({DataKind::kRandom, 0}, 5);
  EXPECT_TRUE(filler.refreshes());
  std::vector<uint64_t> first(kFillBytes / 8), second(kFillBytes / 8);
  filler.Fill(first.data(), kFillBytes);
  second = first;
  filler.Fill(second.data(), kFillBytes);
  size_t equal = 0;
  for (size_t i = 0; i < first.size(); ++i) equal += first[i] == second[i];
  EXPECT_EQ(equal, 0u);
}

TEST(DataFillerTest, SameSeedSameBytesOddLengthsAreFilled) {
  std::vector<unsigned char> a(1000, 0), b(1000, 0);
  DataFiller x({DataKind::kRandom, 0}, 11), y({DataKind::kRandom, 0}, 11);
  x.Fill(a.data(), 999);
  y.Fill(b.data(), 999);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a[999], 0);  // nothing written past the end
  EXPECT_NE(std::count(a.begin(), a.begin() + 999, 0), 999);
}

// The bytes are 16 xoshiro256++ generators taking turns 8 bytes at a time,
// seeded from Random(seed) in groups of four: words 16q..16q+15 are state
// word 0 of generators 4q..4q+3, then word 1, 2 and 3. A scalar copy of the
// algorithm must give the same bytes as the vector code, whichever clone the
// CPU runs.
TEST(DataFillerTest, RandomBytesAreSixteenXoshiroGeneratorsInTurn) {
  constexpr int kGenerators = 16;
  uint64_t state[kGenerators][4];
  Random seeding(42);
  for (int quad = 0; quad < 4; ++quad)
    for (int word = 0; word < 4; ++word)
      for (int lane = 0; lane < 4; ++lane)
        state[4 * quad + lane][word] = seeding.Next();
  auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  auto next = [&](uint64_t* s) {
    const uint64_t result = rotl(s[0] + s[3], 23) + s[0];
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  };
  // 1000 bytes over two calls: 7 whole rounds and a tail, then the next
  // call continues where the tail's round left off.
  std::vector<uint64_t> expected;
  for (int round = 0; round < 9; ++round)
    for (auto& generator : state) expected.push_back(next(generator));

  DataFiller filler({DataKind::kRandom, 0}, 42);
  std::vector<uint64_t> first(125), second(16);
  filler.Fill(first.data(), 1000);
  filler.Fill(second.data(), 128);
  for (size_t i = 0; i < first.size(); ++i)
    ASSERT_EQ(first[i], expected[i]) << i;
  for (size_t i = 0; i < second.size(); ++i)
    ASSERT_EQ(second[i], expected[128 + i]) << i;
}

}  // namespace
}  // namespace flashmark
