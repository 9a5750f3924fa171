// The workload option table (config/campaign_keys.h) is the one
// description of each option: its names are unique, it has help, and its
// JSON key is one the run document's "config" really holds.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "config/campaign_keys.h"
#include "document/json_format.h"

namespace flashmark {
namespace {

TEST(OptionTable, NamesAreUniqueAndEveryOptionHasHelpAndAJsonKey) {
  const nlohmann::json config = ToJson(JobSpec());
  std::set<std::string> names;
  for (const CampaignOption& option : CampaignOptions()) {
    EXPECT_TRUE(names.insert(std::string(option.name)).second) << option.name;
    if (!option.alias.empty()) {
      EXPECT_TRUE(names.insert(std::string(option.alias)).second)
          << option.alias;
    }
    EXPECT_FALSE(option.help.empty()) << option.name;
    EXPECT_TRUE(config.contains(std::string(option.json_key)))
        << option.name << ": the run document has no \"" << option.json_key
        << "\"";
    EXPECT_NE(option.text == nullptr, option.flag == nullptr)
        << option.name << " sets exactly one field";
    EXPECT_EQ(FindCampaignOption(option.name), &option);
    if (!option.alias.empty()) {
      EXPECT_EQ(FindCampaignOption(option.alias), &option);
    }
  }
}

}  // namespace
}  // namespace flashmark
