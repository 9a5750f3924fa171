// SplitByLatency: the four parts by the IOs' latency, so that the split of
// a percentile adds up to it; its store and JSON forms.
#include "model/split_by_latency.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "document/json_format.h"
#include "model/histogram_buckets.h"
#include "model/latency_histogram.h"
#include "store/histogram_codec.h"

namespace flashmark {
namespace {

using Parts = SplitByLatency::Parts;

uint64_t Sum(const Parts& parts) {
  return parts[0] + parts[1] + parts[2] + parts[3];
}

TEST(SplitByLatency, BandsAreUnder3Point2PercentWideAndInOrder) {
  uint32_t previous = 0;
  for (uint64_t ns = 1024; ns < (1ull << 40); ns += ns / 97 + 1) {
    const uint32_t band = SplitByLatency::BandOf(ns);
    ASSERT_GE(band, previous) << ns;
    ASSERT_LT(band, SplitByLatency::kBands);
    previous = band;
    // The band's bounds: the lowest of its 16 buckets, the next band's.
    const uint64_t low = buckets::LowerBound(band * 16);
    const uint64_t high = buckets::LowerBound((band + 1) * 16);
    ASSERT_LE(low, ns);
    ASSERT_LT(ns, high);
    ASSERT_LE(static_cast<double>(high - low) / static_cast<double>(low),
              1.0 / 32 + 1e-9)
        << ns;
  }
  EXPECT_EQ(SplitByLatency::BandOf(UINT64_MAX), SplitByLatency::kBands - 1);
}

TEST(SplitByLatency, APercentilesPartsAreTheMeanPartsOfTheIosInItsBand) {
  SplitByLatencyAccumulator accumulator;
  // 60 IOs near 50 us, 39 near 200 us, one of 5 ms.
  for (int k = 0; k < 60; ++k)
    accumulator.Add({2'000, 1'000, 40'000, 7'000 + uint64_t(k)});
  for (int k = 0; k < 39; ++k) accumulator.Add({3'000, 1'000, 190'000, 6'000});
  accumulator.Add({4'000, 1'000, 4'990'000, 5'000});
  const SplitByLatency split = accumulator.Take();
  EXPECT_EQ(split.ios(), 100u);
  ASSERT_EQ(split.bands().size(), 3u);
  const std::array<double, 4> p50 = split.PartsAt(0.5);
  EXPECT_DOUBLE_EQ(p50[0], 2'000);
  EXPECT_DOUBLE_EQ(p50[2], 40'000);
  EXPECT_DOUBLE_EQ(p50[3], 7'000 + 59 / 2.0);  // the band's mean
  const std::array<double, 4> p99 = split.PartsAt(0.99);
  EXPECT_DOUBLE_EQ(p99[0] + p99[1] + p99[2] + p99[3], 200'000);
  const std::array<double, 4> max = split.PartsAt(1.0);
  EXPECT_DOUBLE_EQ(max[2], 4'990'000);
  EXPECT_TRUE(accumulator.Take().empty()) << "handed over once";
  for (const double part : SplitByLatency().PartsAt(0.5)) {
    EXPECT_TRUE(std::isnan(part));
  }
}

// What the split is for: whatever the parts' distributions, the p50's
// parts add up to the p50 of the IOs' latency within a band, where the
// parts' own p50s do not.
TEST(SplitByLatency, ThePercentilesPartsAddUpToItWhereThePartsP50sDoNot) {
  std::mt19937_64 random(7);
  std::exponential_distribution<double> device(1 / 50'000.0);
  std::exponential_distribution<double> completion(1 / 30'000.0);
  SplitByLatencyAccumulator accumulator;
  LatencyHistogram latency, device_part, completion_part;
  for (int k = 0; k < 100'000; ++k) {
    const Parts parts = {1'500, 600, static_cast<uint64_t>(device(random)),
                         static_cast<uint64_t>(completion(random))};
    accumulator.Add(parts);
    latency.Add(Sum(parts));
    device_part.Add(parts[2]);
    completion_part.Add(parts[3]);
  }
  const SplitByLatency split = accumulator.Take();
  for (const double q : {0.5, 0.9, 0.99}) {
    const std::array<double, 4> at = split.PartsAt(q);
    EXPECT_NEAR((at[0] + at[1] + at[2] + at[3]) / latency.Quantile(q), 1.0,
                1.0 / 32)
        << q;
  }
  const double p50s =
      2'100 + device_part.Quantile(0.5) + completion_part.Quantile(0.5);
  EXPECT_LT(p50s / latency.Quantile(0.5), 0.9) << "the parts' own p50s";
}

void ExpectEqual(const SplitByLatency& a, const SplitByLatency& b) {
  ASSERT_EQ(a.bands().size(), b.bands().size());
  for (size_t k = 0; k < a.bands().size(); ++k) {
    EXPECT_EQ(a.bands()[k].index, b.bands()[k].index);
    EXPECT_EQ(a.bands()[k].ios, b.bands()[k].ios);
    EXPECT_EQ(a.bands()[k].part_ns, b.bands()[k].part_ns);
  }
}

TEST(SplitByLatency, MergingEqualsAddingEveryIoToOne) {
  SplitByLatencyAccumulator one, first, second, merged;
  for (uint64_t k = 0; k < 500; ++k) {
    const Parts parts = {k, 2 * k, 30 * k + 1'000, 7};
    one.Add(parts);
    (k % 3 == 0 ? first : second).Add(parts);
  }
  SplitByLatency a = first.Take();
  const SplitByLatency b = second.Take();
  merged.Add(a);
  merged.Add(b);
  a.Merge(b);
  const SplitByLatency whole = one.Take();
  ExpectEqual(a, whole);
  ExpectEqual(merged.Take(), whole);
}

TEST(SplitByLatency, MalformedBandsAreRefused) {
  using Band = SplitByLatency::Band;
  EXPECT_TRUE(SplitByLatency::FromBands({Band{3, 1, {}}, Band{9, 2, {}}}).ok());
  EXPECT_FALSE(
      SplitByLatency::FromBands({Band{9, 1, {}}, Band{3, 2, {}}}).ok());
  EXPECT_FALSE(
      SplitByLatency::FromBands({Band{3, 1, {}}, Band{3, 2, {}}}).ok());
  EXPECT_FALSE(SplitByLatency::FromBands({Band{3, 0, {}}}).ok());
  auto too_high =
      SplitByLatency::FromBands({Band{SplitByLatency::kBands, 1, {}}});
  ASSERT_FALSE(too_high.ok());
  EXPECT_NE(too_high.error().message.find("index 1120"), std::string::npos)
      << too_high.error().message;
}

SplitByLatency Sample() {
  SplitByLatencyAccumulator accumulator;
  accumulator.Add({1'400, 600, 20'000, 21'000});
  accumulator.Add({1'500, 550, 150'000, 16'000});
  accumulator.Add({1'500, 550, 150'000'000'000ull, 16'000});
  return accumulator.Take();
}

TEST(SplitByLatency, StoreFormRoundTripsAndRefusesDamage) {
  const SplitByLatency split = Sample();
  const std::vector<uint8_t> bytes = EncodeSplitByLatency(split);
  auto decoded = DecodeSplitByLatency(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  ExpectEqual(*decoded, split);
  EXPECT_TRUE(DecodeSplitByLatency({}).ok());
  // A band cut anywhere (cut between two bands, a split is a shorter one).
  SplitByLatencyAccumulator one;
  one.Add({1'500, 550, 150'000'000'000ull, 16'000});
  const std::vector<uint8_t> band = EncodeSplitByLatency(one.Take());
  for (size_t cut = 1; cut < band.size(); ++cut) {
    EXPECT_FALSE(DecodeSplitByLatency(std::span(band).first(cut)).ok())
        << "cut at " << cut;
  }
  // A band index past the last: delta 1200.
  const std::vector<uint8_t> beyond = {0xb0, 0x09, 1, 0, 0, 0, 0};
  EXPECT_FALSE(DecodeSplitByLatency(beyond).ok());
}

TEST(SplitByLatency, JsonFormRoundTripsAndRefusesDamage) {
  const SplitByLatency split = Sample();
  auto read = SplitByLatencyFromJson(ToJson(split));
  ASSERT_TRUE(read.ok()) << read.error().message;
  ExpectEqual(*read, split);
  EXPECT_FALSE(
      SplitByLatencyFromJson(nlohmann::json::parse("[[1, 2, 3]]")).ok());
  EXPECT_FALSE(
      SplitByLatencyFromJson(
          nlohmann::json::parse("[[5, 1, 0, 0, 0, 0], [5, 1, 0, 0, 0, 0]]"))
          .ok());
}

}  // namespace
}  // namespace flashmark
