// Campaign file building blocks: ranges, option keys and suggestions,
// $VAR expansion and the file hash.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/campaign_env.h"
#include "config/campaign_hash.h"
#include "config/campaign_keys.h"
#include "config/campaign_range.h"
#include "config/campaign_spec.h"
#include "test_support.h"

namespace flashmark {
namespace {

using test_support::FixedEnvironment;

std::vector<std::string> Range(const std::string& text) {
  auto values = ExpandRange(text);
  EXPECT_TRUE(values.ok()) << text << ": " << values.error().message;
  return values.ok() ? *values : std::vector<std::string>{};
}

std::string RangeError(const std::string& text) {
  auto values = ExpandRange(text);
  EXPECT_FALSE(values.ok()) << text;
  return values.ok() ? "" : values.error().message;
}

using Strings = std::vector<std::string>;

using Strings = std::vector<std::string>;

// ---------------------------------------------------------------- ranges

TEST(CampaignRangeTest, SizesKeepTheirUnit) {
  const Strings sizes = Range("50G..650G step 40G");
  ASSERT_EQ(sizes.size(), 16u);  // (650 - 50) / 40 + 1
  EXPECT_EQ(sizes[0], "50G");
  EXPECT_EQ(sizes[1], "90G");
  EXPECT_EQ(sizes[2], "130G");
  EXPECT_EQ(sizes[15], "650G");
  EXPECT_EQ(Range("16GiB..64GiB step 16GiB"),
            (Strings{"16GiB", "32GiB", "48GiB", "64GiB"}));
  EXPECT_EQ(Range("4k..64k x2"), (Strings{"4k", "8k", "16k", "32k", "64k"}));
}

TEST(CampaignRangeTest, SizesFallBackToAUnitThatDividesEveryValue) {
  EXPECT_EQ(Range("512M..2G step 512M"),
            (Strings{"512M", "1024M", "1536M", "2048M"}));
  // 1.5G = 1536M; the G values are not whole numbers of G.
  EXPECT_EQ(Range("1.5G..3G step 0.5G"),
            (Strings{"1536M", "2048M", "2560M", "3072M"}));
  EXPECT_EQ(Range("1000k..3000k step 1000k"),
            (Strings{"1000k", "2000k", "3000k"}));
  EXPECT_EQ(Range("1G..2G step 1000M"), (Strings{"1024M", "2024M"}));
}

TEST(CampaignRangeTest, EndIncludedOnlyWhenAStepLandsOnIt) {
  EXPECT_EQ(Range("1G..5G step 3G"), (Strings{"1G", "4G"}));
  EXPECT_EQ(Range("1..20 x2"), (Strings{"1", "2", "4", "8", "16"}));
  EXPECT_EQ(Range("7..7 step 3"), (Strings{"7"}));
}

TEST(CampaignRangeTest, Counts) {
  EXPECT_EQ(Range("1..16 step 1").size(), 16u);
  EXPECT_EQ(Range("1..16 step 1")[15], "16");
  EXPECT_EQ(Range("1..16 x2"), (Strings{"1", "2", "4", "8", "16"}));
  EXPECT_EQ(Range("1..16 x 4"), (Strings{"1", "4", "16"}));
  EXPECT_EQ(Range("0..100 step 25"), (Strings{"0", "25", "50", "75", "100"}));
  EXPECT_EQ(Range("1..4"), (Strings{"1", "2", "3", "4"}));
  EXPECT_EQ(Range(" 2 .. 6  step  2 "), (Strings{"2", "4", "6"}));
  // Plain numbers are counts even for sizes: still exact bytes.
  EXPECT_EQ(Range("4096..16384 step 4096"),
            (Strings{"4096", "8192", "12288", "16384"}));
}

TEST(CampaignRangeTest, Durations) {
  EXPECT_EQ(Range("10s..60s step 10s"),
            (Strings{"10s", "20s", "30s", "40s", "50s", "60s"}));
  // "2h" is no size, so the range reads as durations; minutes stay minutes.
  EXPECT_EQ(Range("30m..2h step 30m"), (Strings{"30m", "60m", "90m", "120m"}));
  EXPECT_EQ(Range("500ms..2s step 500ms"),
            (Strings{"500ms", "1000ms", "1500ms", "2000ms"}));
  EXPECT_EQ(Range("1s..16s x2"), (Strings{"1s", "2s", "4s", "8s", "16s"}));
}

TEST(CampaignRangeTest, TheOptionDecidesWhatMMeans) {
  // Alone, "1m" is a size (MiB) as everywhere in flashmark...
  EXPECT_EQ(Range("1m..3m step 1m"), (Strings{"1m", "2m", "3m"}));
  // ...but an axis over time reads its range as durations.
  auto minutes = ExpandRangeAs("1m..3m step 1m", RangeKind::kDuration);
  ASSERT_TRUE(minutes.ok());
  EXPECT_EQ(*minutes, (Strings{"1m", "2m", "3m"}));
  auto sizes = ExpandRangeAs("1..3 step 1", RangeKind::kSize);
  ASSERT_TRUE(sizes.ok());
  EXPECT_EQ(*sizes, (Strings{"1", "2", "3"}));
  EXPECT_FALSE(ExpandRangeAs("1G..3G step 1G", RangeKind::kCount).ok());
}

TEST(CampaignRangeTest, Limits) {
  EXPECT_EQ(Range("1..10000 step 1").size(), kMaxRangeValues);
  EXPECT_NE(RangeError("1..10001 step 1").find("more than 10000 values"),
            std::string::npos);
  EXPECT_NE(RangeError("0..1T step 1").find("more than 10000 values"),
            std::string::npos);
}

TEST(CampaignRangeTest, BadRanges) {
  EXPECT_NE(RangeError("5G..1G step 1G").find("empty: 5G is more than 1G"),
            std::string::npos);
  EXPECT_NE(RangeError("1G..5G step 0G").find("the step is 0"),
            std::string::npos);
  EXPECT_NE(RangeError("1..5 step 0").find("the step is 0"), std::string::npos);
  EXPECT_NE(RangeError("1G..5G").find("need a step"), std::string::npos);
  EXPECT_NE(RangeError("1..16 x1").find("factor"), std::string::npos);
  EXPECT_NE(RangeError("0..16 x2").find("cannot start at 0"),
            std::string::npos);
  EXPECT_NE(RangeError("1..16 stride 2").find("expected \"step S\""),
            std::string::npos);
  EXPECT_NE(RangeError("a..b step c").find("not counts, sizes or durations"),
            std::string::npos);
  EXPECT_NE(RangeError("1G..10s step 1G").find("not counts, sizes"),
            std::string::npos);
  EXPECT_NE(RangeError("..5").find("an end is missing"), std::string::npos);
  EXPECT_NE(RangeError("16").find("no \"..\""), std::string::npos);
}

// ----------------------------------------------------- keys and variables

TEST(CampaignKeysTest, SuggestsTheClosestKey) {
  const std::vector<std::string_view> names = CampaignOptionNames();
  EXPECT_EQ(ClosestKey("iodepht", names), "iodepth");  // a swap is one edit
  EXPECT_EQ(ClosestKey("thread", names), "threads");
  EXPECT_EQ(ClosestKey("file_num", names), "file-num");
  EXPECT_EQ(ClosestKey("sise", names), "size");
  EXPECT_EQ(ClosestKey("xyzzy", names), "");
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("ab", "ba"), 1u);
  EXPECT_EQ(SuggestKey("enigne", names), "did you mean engine?");
}

TEST(CampaignKeysTest, AliasesFindTheCanonicalOption) {
  ASSERT_NE(FindCampaignOption("numjobs"), nullptr);
  EXPECT_EQ(FindCampaignOption("numjobs")->name, "threads");
  EXPECT_EQ(FindCampaignOption("ioengine")->name, "engine");
  EXPECT_EQ(FindCampaignOption("db"), nullptr);
  EXPECT_NE(MisplacedKeyHint("db"), "");
}

TEST(CampaignEnvironmentTest, Expands) {
  const EnvironmentLookup env =
      FixedEnvironment({{"DIR", "/tmp/q"}, {"EMPTY", ""}});
  EXPECT_EQ(*ExpandEnvironment("$DIR/files", env), "/tmp/q/files");
  EXPECT_EQ(*ExpandEnvironment("${DIR}x", env), "/tmp/qx");
  EXPECT_EQ(*ExpandEnvironment("${NOPE:-/mnt/a}", env), "/mnt/a");
  EXPECT_EQ(*ExpandEnvironment("${DIR:-/mnt/a}", env), "/tmp/q");
  EXPECT_EQ(*ExpandEnvironment("${EMPTY:-/mnt/a}", env), "/mnt/a");
  EXPECT_EQ(*ExpandEnvironment("cost $$5", env), "cost $5");
  EXPECT_EQ(*ExpandEnvironment("/plain/path", env), "/plain/path");
}

TEST(CampaignEnvironmentTest, Errors) {
  const EnvironmentLookup env = FixedEnvironment();
  auto unset = ExpandEnvironment("$NOPE/x", env);
  ASSERT_FALSE(unset.ok());
  EXPECT_NE(unset.error().message.find("$NOPE is not set"), std::string::npos);
  EXPECT_NE(unset.error().hint.find("${NOPE:-default}"), std::string::npos);
  EXPECT_FALSE(ExpandEnvironment("${DIR", env).ok());
  EXPECT_FALSE(ExpandEnvironment("a $ b", env).ok());
  EXPECT_FALSE(ExpandEnvironment("${A B}", env).ok());
}

TEST(CampaignHashTest, Sha256KnownAnswers) {
  EXPECT_EQ(Sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

}  // namespace
}  // namespace flashmark
