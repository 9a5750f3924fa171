#include "config/tag_options.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

TEST(TagOptions, SplitsAtTheFirstEquals) {
  auto tags = ParseTagOptions({"device=ssd-a", "note=a=b", "empty="});
  ASSERT_TRUE(tags.ok()) << tags.error().message;
  ASSERT_EQ(tags->size(), 3u);
  EXPECT_EQ((*tags)[0],
            std::make_pair(std::string("device"), std::string("ssd-a")));
  EXPECT_EQ((*tags)[1],
            std::make_pair(std::string("note"), std::string("a=b")));
  EXPECT_EQ((*tags)[2].second, "");
}

TEST(TagOptions, MissingKeyOrEqualsIsAUsageErrorNamingIt) {
  for (const char* bad : {"device", "=ssd-a"}) {
    auto tags = ParseTagOptions({"ok=1", bad});
    ASSERT_FALSE(tags.ok()) << bad;
    EXPECT_EQ(tags.error().message,
              std::string("--tag: \"") + bad + "\" is not key=value");
    EXPECT_EQ(tags.error().hint, "try --tag device=ssd-a");
  }
}

}  // namespace
}  // namespace flashmark
