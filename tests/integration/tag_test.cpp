// `flashmark tag RUN... KEY=VALUE... [--remove KEY]` (issue 15): tags
// changed after a run was stored, all runs or none, never the tags a sweep
// ties its runs to its cells with.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

json TagsOf(const std::string& db, int id) {
  const Invocation show =
      RunFlashmark({"show", std::to_string(id), "--db", db, "--json"});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  return json::parse(show.out)["tags"];
}

TEST(Tag, SetsReplacesAndRemovesTagsOfSeveralRuns) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "1s", "-q",
                            "--db", db, "--tag", "note=first"})
                  .exit_code,
              0);
  }
  const Invocation tag =
      RunFlashmark({"tag", "1", "2", "device=ssd-a", "price=350", "--db", db});
  ASSERT_EQ(tag.exit_code, 0) << tag.err;
  EXPECT_NE(tag.out.find("run 2: device=ssd-a price=350"), std::string::npos)
      << tag.out;
  EXPECT_EQ(TagsOf(db, 1),
            json({{"device", "ssd-a"}, {"note", "first"}, {"price", "350"}}));
  ASSERT_EQ(
      RunFlashmark({"tag", "2", "device=ssd-b", "--remove", "note", "--db", db})
          .exit_code,
      0);
  EXPECT_EQ(TagsOf(db, 2), json({{"device", "ssd-b"}, {"price", "350"}}));
  // The new tags group runs as tags given at run time do.
  const Invocation list =
      RunFlashmark({"list", "--db", db, "--tag", "device=ssd-b", "--ids"});
  EXPECT_EQ(list.out, "2\n");
  const Invocation compare =
      RunFlashmark({"compare", "1", "2", "--by", "device", "--db", db});
  EXPECT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_NE(compare.out.find("ssd-b"), std::string::npos) << compare.out;
}

TEST(Tag, BadInputChangesNothing) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  ASSERT_EQ(RunFlashmark({"run", "--engine", "null", "--time", "1s", "-q",
                          "--db", db, "--tag", "device=a"})
                .exit_code,
            0);
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const Case& bad : std::vector<Case>{
           {{"1", "9", "device=b"}, "no run 9"},
           {{"1", "cell=3"}, "set by flashmark sweep"},
           {{"1", "--remove", "campaign"}, "set by flashmark sweep"},
           {{"1", "device=b", "2"}, "run id 2 after the tags"},
           {{"1", "device=b", "--remove", "device"}, "both set and removed"},
           {{"1"}, "tag needs run ids and KEY=VALUE tags"},
           {{"x", "device=b"}, "x"},
           {{"1", "=b"}, "=b"}}) {
    std::vector<std::string> args = {"tag"};
    args.insert(args.end(), bad.args.begin(), bad.args.end());
    args.insert(args.end(), {"--db", db});
    const Invocation tag = RunFlashmark(args);
    EXPECT_EQ(tag.exit_code, 2) << bad.message;
    EXPECT_NE(tag.err.find(bad.message), std::string::npos) << tag.err;
  }
  EXPECT_EQ(TagsOf(db, 1), json({{"device", "a"}}));
  // A missing database is not created by tagging.
  EXPECT_EQ(RunFlashmark({"tag", "1", "device=b", "--db", dir.File("no.db")})
                .exit_code,
            2);
  EXPECT_FALSE(std::filesystem::exists(dir.File("no.db")));
}

}  // namespace
}  // namespace flashmark::testing
