// Inputs the campaign fuzzer (fuzz/fuzz_campaign.cpp) crashed on, kept so
// the normal suite holds them fixed. Each must be refused with a usage
// error naming the file, line and column; none may crash (under UBSan,
// -DFLASHMARK_SANITIZE=ON, the unfixed toml++ 3.3 reported "execution
// reached an unreachable program point" for every one of them).
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "config/campaign_spec.h"

namespace flashmark {
namespace {

std::string WriteFuzzCampaign(const std::string& name,
                              const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::optional<std::string> NoVariable(const std::string&) {
  return std::nullopt;
}

// A non-ASCII code point that is not whitespace, where toml++ 3.3 asks
// whether it is (issues marzer/tomlplusplus#190 and #295): the fix is in
// src/config/toml_include.h.
TEST(CampaignFuzzRegressions, NonAsciiWhereWhitespaceMayStandIsASyntaxError) {
  const std::vector<std::string> inputs = {
      "\xcd\xa5",      // U+0365 (crash-8601ca4d...)
      " \xcd\x8d",     // U+034D after a space (crash-616b11ea...)
      "\xe2\xbb\xbf",  // U+2EFF (crash-9af3dbb2...)
      "\xef\xbb\xaf",  // U+FEEF (crash-b92281e7...)
      "\xef\xbb\xbe",  // U+FEFE (crash-ec47fe7f...)
      "\xcc\xaa",      // U+032A (upstream #295)
      "s = \"\"\"\\\n\xc2\xa7\"\"\"\n",  // after a line-ending backslash (#190)
      "[campaign]\nname = \"x\"\n\xc2\xa7 = 1\n",
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string path = WriteFuzzCampaign(
        "fuzz-regression-" + std::to_string(i) + ".toml", inputs[i]);
    auto campaign = LoadCampaign(path, NoVariable);
    if (i == 6) {
      // Valid TOML (a string); it fails later, as a campaign, not in toml++.
      ASSERT_FALSE(campaign.ok());
      continue;
    }
    ASSERT_FALSE(campaign.ok()) << "input " << i;
    EXPECT_EQ(campaign.error().exit_code, kUsageExit);
    EXPECT_EQ(campaign.error().message.rfind(path + ":", 0), 0u)
        << campaign.error().message;
  }
}

TEST(CampaignFuzzRegressions, NonAsciiInStringsAndCommentsStillLoads) {
  const std::string path =
      WriteFuzzCampaign("non-ascii.toml",
                        "# \xc2\xa7 Cyrillic \xd0\x96, Greek \xce\xb1\n"
                        "[campaign]\nname = \"caf\xc3\xa9\"\ndescription = "
                        "\"\xcd\xa5 \xef\xbb\xbe\"\n"
                        "[workload]\nengine = \"null\"\ntime = \"1s\"\n");
  auto campaign = LoadCampaign(path, NoVariable);
  ASSERT_TRUE(campaign.ok()) << campaign.error().message;
  EXPECT_EQ(campaign->name, "caf\xc3\xa9");
}

}  // namespace
}  // namespace flashmark
