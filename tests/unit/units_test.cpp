#include "common/units.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>

#include "test_support.h"

namespace flashmark {
namespace {

using test_support::kGiB;
using test_support::kKiB;
using test_support::kMiB;
using test_support::kTiB;

using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::nanoseconds;
using std::chrono::seconds;

constexpr uint64_t kPiB = kTiB * 1024;

uint64_t SizeOf(const std::string& text) {
  const Result<uint64_t> result = ParseSize(text);
  EXPECT_TRUE(result.ok()) << text << ": " << result.error().message;
  return result.ok() ? *result : ~0ull;
}

nanoseconds DurationOf(const std::string& text) {
  const Result<nanoseconds> result = ParseDuration(text);
  EXPECT_TRUE(result.ok()) << text << ": " << result.error().message;
  return result.ok() ? *result : nanoseconds(-1);
}

TEST(ParseSizeTest, PlainBytes) {
  EXPECT_EQ(SizeOf("0"), 0u);
  EXPECT_EQ(SizeOf("4096"), 4096u);
  EXPECT_EQ(SizeOf("  8192 "), 8192u);
  EXPECT_EQ(SizeOf("18446744073709551615"),
            std::numeric_limits<uint64_t>::max());
}

TEST(ParseSizeTest, BinaryUnitsInEverySpelling) {
  for (const char* text :
       {"4k", "4K", "4kB", "4KB", "4kb", "4KiB", "4kib", "4 KiB", "4 k"}) {
    EXPECT_EQ(SizeOf(text), 4 * kKiB) << text;
  }
  for (const char* text : {"3m", "3M", "3MB", "3MiB", "3 mib"}) {
    EXPECT_EQ(SizeOf(text), 3 * kMiB) << text;
  }
  for (const char* text : {"50g", "50G", "50GB", "50GiB"}) {
    EXPECT_EQ(SizeOf(text), 53'687'091'200u) << text;
  }
  for (const char* text : {"2t", "2T", "2TB", "2TiB"}) {
    EXPECT_EQ(SizeOf(text), 2 * kTiB) << text;
  }
  for (const char* text : {"1p", "1P", "1PB", "1PiB"}) {
    EXPECT_EQ(SizeOf(text), 1'125'899'906'842'624u) << text;
  }
}

TEST(ParseSizeTest, DecimalsRoundToBytes) {
  EXPECT_EQ(SizeOf("1.5G"), 1'610'612'736u);
  EXPECT_EQ(SizeOf("0.5k"), 512u);
  EXPECT_EQ(SizeOf(".25M"), 262'144u);
  EXPECT_EQ(SizeOf("1.0005k"), 1025u);  // 1024.512
  EXPECT_EQ(SizeOf("1.0004k"), 1024u);  // 1024.4096
  EXPECT_EQ(SizeOf("0.4"), 0u);
  EXPECT_EQ(SizeOf("0.5"), 1u);  // halves round up
  EXPECT_EQ(SizeOf("2.75T"), 3'023'656'976'384u);
}

TEST(ParseSizeTest, OverflowIsAnError) {
  EXPECT_EQ(SizeOf("16383P"), 16383 * kPiB);
  for (const char* text : {"16384P", "18446744073709551616",
                           "99999999999999999999999999", "20000000T"}) {
    const Result<uint64_t> result = ParseSize(text);
    ASSERT_FALSE(result.ok()) << text;
    EXPECT_NE(result.error().message.find("too large"), std::string::npos)
        << result.error().message;
  }
}

TEST(ParseSizeTest, RejectsGarbageNamingTheText) {
  for (const char* text : {"", "  ", "-4k", "4x", "k", "4kk", "4kibi", "1e3",
                           "4b", "+4k", "4.5.6", ".", "4 k b", "0x10"}) {
    const Result<uint64_t> result = ParseSize(text);
    ASSERT_FALSE(result.ok()) << "accepted: " << text;
    EXPECT_EQ(result.error().exit_code, kUsageExit);
    EXPECT_EQ(result.error().hint,
              "use a number with an optional unit, e.g. 4k, 16KiB, 50G");
    if (std::string(text).find_first_not_of(' ') != std::string::npos) {
      EXPECT_NE(result.error().message.find('"' + std::string(text) + '"'),
                std::string::npos)
          << result.error().message;
    }
  }
  EXPECT_EQ(ParseSize("-4k").error().message, "\"-4k\" is negative");
  EXPECT_EQ(ParseSize("4x").error().message, "\"4x\" is not a size");
}

TEST(ParseDurationTest, PlainNumbersAreSeconds) {
  EXPECT_EQ(DurationOf("30"), seconds(30));
  EXPECT_EQ(DurationOf("1.5"), milliseconds(1500));
  EXPECT_EQ(DurationOf("0"), nanoseconds(0));
}

TEST(ParseDurationTest, Units) {
  EXPECT_EQ(DurationOf("90s"), seconds(90));
  EXPECT_EQ(DurationOf("90 s"), seconds(90));
  EXPECT_EQ(DurationOf("500ms"), milliseconds(500));
  EXPECT_EQ(DurationOf("250us"), microseconds(250));
  EXPECT_EQ(DurationOf("100ns"), nanoseconds(100));
  EXPECT_EQ(DurationOf("2m"), minutes(2));
  EXPECT_EQ(DurationOf("2min"), minutes(2));
  EXPECT_EQ(DurationOf("1h"), hours(1));
  EXPECT_EQ(DurationOf("1H"), hours(1));
  EXPECT_EQ(DurationOf("1d"), hours(24));
  EXPECT_EQ(DurationOf("1.5h"), minutes(90));
  EXPECT_EQ(DurationOf("0.25s"), milliseconds(250));
  EXPECT_EQ(DurationOf("0s"), nanoseconds(0));
}

TEST(ParseDurationTest, Compound) {
  EXPECT_EQ(DurationOf("1h30m"), minutes(90));
  EXPECT_EQ(DurationOf("1h 30m"), minutes(90));
  EXPECT_EQ(DurationOf("1h30m15s"), seconds(5415));
  EXPECT_EQ(DurationOf("1d2h"), hours(26));
  EXPECT_EQ(DurationOf("2min30s"), seconds(150));
  EXPECT_EQ(DurationOf("1s500ms"), milliseconds(1500));
}

TEST(ParseDurationTest, Limits) {
  EXPECT_EQ(DurationOf("106751d"), hours(106751 * 24));
  EXPECT_FALSE(ParseDuration("106752d").ok());  // past int64 nanoseconds
  EXPECT_FALSE(ParseDuration("99999999999999999999999s").ok());
}

TEST(ParseDurationTest, RejectsGarbage) {
  for (const char* text : {"", "-5s", "-5", "5x", "1h30", "30m1h", "1m1m", "h",
                           "1e3s", "s5", "5 s s", "1.5.2s"}) {
    const Result<nanoseconds> result = ParseDuration(text);
    ASSERT_FALSE(result.ok()) << "accepted: " << text;
    EXPECT_EQ(result.error().exit_code, kUsageExit);
    EXPECT_FALSE(result.error().hint.empty());
  }
  EXPECT_EQ(ParseDuration("5x").error().message, "\"5x\" is not a duration");
  EXPECT_EQ(ParseDuration("-5s").error().message, "\"-5s\" is negative");
  EXPECT_NE(ParseDuration("30m1h").error().message.find("largest"),
            std::string::npos);
}

TEST(ParseRateTest, Iops) {
  const auto iops = [](const std::string& text) {
    const Result<Rate> result = ParseRate(text);
    EXPECT_TRUE(result.ok()) << text << ": " << result.error().message;
    if (!result.ok()) return -1.0;
    EXPECT_EQ(result->bytes_per_second, 0) << text;
    return result->iops;
  };
  EXPECT_EQ(iops("5000"), 5000);
  EXPECT_EQ(iops("5000iops"), 5000);
  EXPECT_EQ(iops("5000 IOPS"), 5000);
  EXPECT_EQ(iops("2.5k"), 2500);
  EXPECT_EQ(iops("2.5K"), 2500);
  EXPECT_EQ(iops("1.5kiops"), 1500);
  EXPECT_EQ(iops("1M"), 1e6);
  EXPECT_EQ(iops("0.5"), 0.5);
}

TEST(ParseRateTest, BytesPerSecondUseBinaryUnits) {
  const auto bytes = [](const std::string& text) {
    const Result<Rate> result = ParseRate(text);
    EXPECT_TRUE(result.ok()) << text << ": " << result.error().message;
    if (!result.ok()) return -1.0;
    EXPECT_EQ(result->iops, 0) << text;
    return result->bytes_per_second;
  };
  EXPECT_EQ(bytes("200MiB/s"), 209'715'200);
  EXPECT_EQ(bytes("100MB/s"), 104'857'600);
  EXPECT_EQ(bytes("1G/s"), 1'073'741'824);
  EXPECT_EQ(bytes("4k/s"), 4096);
  EXPECT_EQ(bytes("1.5 GiB/s"), 1'610'612'736);
}

TEST(ParseRateTest, RejectsZeroNegativeAndGarbage) {
  for (const char* text : {"", "0", "0k/s", "-5", "abc", "5x", "/s", "5000/s",
                           "5000iops/s", "5 k k", "99999999999999999999999"}) {
    const Result<Rate> result = ParseRate(text);
    ASSERT_FALSE(result.ok()) << "accepted: " << text;
    EXPECT_EQ(result.error().exit_code, kUsageExit);
    EXPECT_FALSE(result.error().hint.empty());
  }
  EXPECT_EQ(ParseRate("abc").error().message, "\"abc\" is not a rate");
}

TEST(ParsePercentTest, Fractions) {
  EXPECT_EQ(*ParsePercent("50%"), 0.5);
  EXPECT_EQ(*ParsePercent("12.5%"), 0.125);
  EXPECT_EQ(*ParsePercent("100%"), 1.0);
  EXPECT_EQ(*ParsePercent(" 25 % "), 0.25);
  EXPECT_DOUBLE_EQ(*ParsePercent("0.1%"), 0.001);
  for (const char* text :
       {"0%", "150%", "100.01%", "50", "%", "-5%", "abc%", "5%%"}) {
    const Result<double> result = ParsePercent(text);
    ASSERT_FALSE(result.ok()) << "accepted: " << text;
    EXPECT_NE(result.error().message.find('"' + std::string(text) + '"'),
              std::string::npos);
    EXPECT_EQ(result.error().hint, "use a percentage, e.g. 50% or 12.5%");
  }
}

TEST(ParseSizeOrShareTest, EitherForm) {
  const Result<SizeOrShare> share = ParseSizeOrShare("50%");
  ASSERT_TRUE(share.ok());
  EXPECT_EQ(share->share, 0.5);
  EXPECT_EQ(share->bytes, 0u);
  const Result<SizeOrShare> size = ParseSizeOrShare("32G");
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(size->bytes, 32 * kGiB);
  EXPECT_EQ(size->share, 0);
  EXPECT_FALSE(ParseSizeOrShare("150%").ok());
  const Result<SizeOrShare> bad = ParseSizeOrShare("lots");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "\"lots\" is not a size");
  EXPECT_NE(bad.error().hint.find("50%"), std::string::npos);
}

TEST(FormatBytesTest, ThreeSignificantDigitsBinaryUnits) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1023), "1023 B");
  EXPECT_EQ(FormatBytes(1024), "1 KiB");
  EXPECT_EQ(FormatBytes(16 * kKiB), "16 KiB");
  EXPECT_EQ(FormatBytes(1536), "1.50 KiB");
  EXPECT_EQ(FormatBytes(10 * kKiB + 1), "10.0 KiB");
  EXPECT_EQ(FormatBytes(123'456'789), "118 MiB");  // 117.74 MiB
  EXPECT_EQ(FormatBytes(kGiB + kGiB / 2), "1.50 GiB");
  EXPECT_EQ(FormatBytes(5 * kGiB + 1), "5.00 GiB");
  EXPECT_EQ(FormatBytes(32 * kGiB), "32 GiB");
  EXPECT_EQ(FormatBytes(1000 * kKiB), "1000 KiB");  // exact stays exact
  EXPECT_EQ(FormatBytes(kMiB - 1), "1.00 MiB");     // 1023.999 KiB
  EXPECT_EQ(FormatBytes(3 * kTiB), "3 TiB");
  EXPECT_EQ(FormatBytes(2 * kPiB), "2 PiB");
  EXPECT_EQ(FormatBytes(std::numeric_limits<uint64_t>::max()), "16.0 EiB");
}

TEST(FormatDurationTest, SmallUnitsThreeDigits) {
  EXPECT_EQ(FormatDuration(nanoseconds(0)), "0 ns");
  EXPECT_EQ(FormatDuration(nanoseconds(999)), "999 ns");
  EXPECT_EQ(FormatDuration(nanoseconds(1500)), "1.5 us");
  EXPECT_EQ(FormatDuration(milliseconds(250)), "250 ms");
  EXPECT_EQ(FormatDuration(microseconds(1500)), "1.5 ms");
  EXPECT_EQ(FormatDuration(seconds(30)), "30 s");
  EXPECT_EQ(FormatDuration(milliseconds(1500)), "1.5 s");
  EXPECT_EQ(FormatDuration(milliseconds(12'345)), "12.3 s");
}

TEST(FormatDurationTest, CompoundAboveAMinute) {
  EXPECT_EQ(FormatDuration(seconds(60)), "1 min");
  EXPECT_EQ(FormatDuration(milliseconds(59'960)), "1 min");
  EXPECT_EQ(FormatDuration(seconds(90)), "1 min 30 s");
  EXPECT_EQ(FormatDuration(seconds(150)), "2 min 30 s");
  EXPECT_EQ(FormatDuration(seconds(3600)), "1 h");
  EXPECT_EQ(FormatDuration(seconds(3900)), "1 h 5 min");
  EXPECT_EQ(FormatDuration(seconds(3605)), "1 h 5 s");
  EXPECT_EQ(FormatDuration(hours(26)), "1 d 2 h");
  EXPECT_EQ(FormatDuration(seconds(-30)), "-30 s");
}

TEST(FormatCountTest, CompactCounts) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(812), "812");
  EXPECT_EQ(FormatCount(812.4), "812");
  EXPECT_EQ(FormatCount(5.25), "5.25");
  EXPECT_EQ(FormatCount(0.5), "0.5");
  EXPECT_EQ(FormatCount(999.4), "999");
  EXPECT_EQ(FormatCount(999.6), "1.00k");
  EXPECT_EQ(FormatCount(24'400), "24.4k");
  EXPECT_EQ(FormatCount(24'412), "24.4k");
  EXPECT_EQ(FormatCount(3'510'000), "3.51M");
  EXPECT_EQ(FormatCount(999'999), "1.00M");
  EXPECT_EQ(FormatCount(1.5e9), "1.50G");
}

// Drive vendors write capacities in decimal units: 2400G and 2.4TB are
// 2.4 * 10^12 bytes (the vendor's 11.88 per GB for 28,500), GiB binary.
TEST(ParseCapacityTest, SiUnitsAreDecimalAndBinaryOnesBinary) {
  EXPECT_EQ(*ParseCapacity("2400G"), 2'400'000'000'000ull);
  EXPECT_EQ(*ParseCapacity("2.4TB"), 2'400'000'000'000ull);
  EXPECT_EQ(*ParseCapacity("960gb"), 960'000'000'000ull);
  EXPECT_EQ(*ParseCapacity("1.92T"), 1'920'000'000'000ull);
  EXPECT_EQ(*ParseCapacity("894GiB"), 894ull << 30);
  EXPECT_EQ(*ParseCapacity("2TiB"), 2ull << 40);
  EXPECT_EQ(*ParseCapacity("512"), 512u);
  const auto bad = ParseCapacity("lots");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("\"lots\""), std::string::npos);
  EXPECT_NE(bad.error().hint.find("decimal"), std::string::npos);
  EXPECT_NEAR(28500 / (*ParseCapacity("2400G") / 1e9), 11.875, 1e-9);
}

TEST(ParsePriceTest, KeepsTheCurrencyAsWritten) {
  const auto check = [](const char* text, double amount, const char* currency) {
    const std::optional<Price> price = ParsePrice(text);
    ASSERT_TRUE(price) << text;
    EXPECT_DOUBLE_EQ(price->amount, amount) << text;
    EXPECT_EQ(price->currency, currency) << text;
  };
  check("28500", 28500, "");
  check("1e3", 1000, "");
  check("USD 28500", 28500, "USD");
  check("usd28500", 28500, "USD");
  check("350 EUR", 350, "EUR");
  check("$350", 350, "$");
  check("\u20ac1200.50", 1200.5, "\u20ac");
  check("US$ 99", 99, "US$");
  for (const char* bad : {"", "cheap", "12x", "-5", "USD", "USD 5 EUR",
                          "dollars 5", "5,000", "$-5", "nan", "inf"}) {
    EXPECT_FALSE(ParsePrice(bad)) << bad;
  }
}

TEST(CostTextTest, ThreeSignificantDigitsWithTheCurrency) {
  EXPECT_EQ(CostText(11.875, "USD"), "USD 11.9");
  EXPECT_EQ(CostText(0.051234, "$"), "$0.0512");
  EXPECT_EQ(CostText(1.2345, ""), "1.23");
  EXPECT_EQ(CostText(28500, "\u20ac"), "\u20ac28500");
  EXPECT_EQ(CostText(123.4, "EUR"), "EUR 123");
}

}  // namespace
}  // namespace flashmark
