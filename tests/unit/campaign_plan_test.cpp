// The expanded plan a campaign stores per cell for --resume
// (config/campaign_plan.h) and the mount table's top mount at a point
// (system/mount_table.h), the two facts the sweep's resume and unmount
// checks rest on.
#include "config/campaign_plan.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "system/mount_table.h"
#include "test_support.h"

namespace flashmark {
namespace {

using test_support::FixedEnvironment;

class CampaignPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/tmp/flashmark-plan-test.XXXXXX";
    directory_ = mkdtemp(pattern.data());
    std::ofstream(path())
        << "[workload]\nengine = \"psync\"\nmode = \"rndwr\"\nsize = \"8M\"\n"
           "[targets]\npaths = [\"$SET\"]\ndevices = [\"/dev/loop9\"]\n"
           "[matrix]\nthreads = [1, 2]\n"
           "[[reset]]\nstep = \"mkfs\"\nfilesystem = \"xfs\"\n"
           "[[reset]]\nstep = \"mount\"\nmount-point = \"${MNT:-/mnt/a}\"\n"
           "[[reset]]\nstep = \"exec\"\nargv = [\"echo\", \"$SET\"]\n"
           "when = { threads = 2 }\n";
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  std::string path() const { return directory_ + "/c.toml"; }

  std::vector<nlohmann::json> Plans(
      std::map<std::string, std::string> variables) {
    auto campaign =
        LoadCampaign(path(), FixedEnvironment(std::move(variables)));
    EXPECT_TRUE(campaign.ok()) << campaign.error().message;
    auto cells = ExpandCampaign(*campaign);
    EXPECT_TRUE(cells.ok()) << cells.error().message;
    std::vector<nlohmann::json> plans;
    for (const auto& cell : *cells)
      plans.push_back(CellPlanJson(*campaign, cell));
    return plans;
  }

  std::string directory_;
};

TEST_F(CampaignPlanTest, HoldsWorkloadTargetsAndTheCellsResetSteps) {
  const auto plans = Plans({{"SET", "/data/a"}});
  ASSERT_EQ(plans.size(), 2u);
  EXPECT_EQ(plans[0]["targets"], nlohmann::json::array({"/data/a"}));
  EXPECT_EQ(plans[0]["workload"]["size"], "8M");
  EXPECT_EQ(plans[1]["workload"]["threads"], "2");
  EXPECT_EQ(plans[0]["parameters"],
            nlohmann::json::parse(R"([["threads", "1"]])"));
  ASSERT_EQ(plans[0]["reset"].size(), 2u) << "the exec step is cell 2's only";
  EXPECT_EQ(plans[0]["reset"][0]["devices"],
            nlohmann::json::array({"/dev/loop9"}));
  EXPECT_EQ(plans[0]["reset"][1]["mount_point"], "/mnt/a");
  ASSERT_EQ(plans[1]["reset"].size(), 3u);
  EXPECT_EQ(plans[1]["reset"][2]["argv"],
            nlohmann::json::array({"echo", "/data/a"}));
  EXPECT_EQ(Plans({{"SET", "/data/a"}}), plans)
      << "the same environment, the same plan";
}

TEST_F(CampaignPlanTest, NamesTheFirstFieldAChangedVariableMoved) {
  const auto before = Plans({{"SET", "/data/a"}});
  const auto moved = Plans({{"SET", "/data/b"}});
  EXPECT_EQ(FirstPlanDifference(before[0], moved[0]),
            "targets[0]: \"/data/a\" then, \"/data/b\" now");
  EXPECT_EQ(FirstPlanDifference(before[1], moved[1]),
            "reset[2].argv[1]: \"/data/a\" then, \"/data/b\" now");
  const auto remounted = Plans({{"SET", "/data/a"}, {"MNT", "/mnt/b"}});
  EXPECT_EQ(FirstPlanDifference(before[0], remounted[0]),
            "reset[1].mount_point: \"/mnt/a\" then, \"/mnt/b\" now");
  EXPECT_EQ(FirstPlanDifference(before[0], before[0]), "");
}

TEST(PlanDifference, ReportsAddedRemovedAndLongValues) {
  const auto before =
      nlohmann::json::parse(R"({"a": [1, 2], "w": {"size": "8M"}})");
  EXPECT_EQ(
      FirstPlanDifference(
          before, nlohmann::json::parse(R"({"a": [1], "w": {"size": "8M"}})")),
      "a[1]: 2 then, (none) now");
  EXPECT_EQ(
      FirstPlanDifference(
          before, nlohmann::json::parse(
                      R"({"a": [1, 2], "w": {"size": "8M", "direct": true}})")),
      "w.direct: (none) then, true now");
  const std::string long_text(200, 'x');
  const std::string found = FirstPlanDifference(
      before, nlohmann::json{{"a", {1, 2}}, {"w", {{"size", long_text}}}});
  EXPECT_LT(found.size(), 120u) << found;
}

TEST(MountTable, TopMountAtIsTheOneStackedLast) {
  // 40 on /mnt/x, 52 stacked on it (its parent is 40), 60 elsewhere; the
  // table need not list them in the order they were made.
  const auto table = ParseMountInfo(
      "52 40 0:61 / /mnt/x rw,relatime - tmpfs user rw\n"
      "27 1 254:0 / / rw,relatime - ext4 /dev/vdz rw\n"
      "40 27 7:3 / /mnt/x rw,relatime - xfs /dev/loop3 rw\n"
      "60 27 0:62 / /mnt/y rw - tmpfs tmpfs rw\n");
  const auto top = TopMountAt(table, "/mnt/x");
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->mount_id, 52);
  EXPECT_EQ(top->parent_id, 40);
  EXPECT_EQ(top->source, "user");
  const std::vector<MountEntry> without_top(table.begin() + 1, table.end());
  EXPECT_EQ(TopMountAt(without_top, "/mnt/x")->mount_id, 40);
  EXPECT_FALSE(TopMountAt(table, "/mnt").has_value())
      << "only at that very point";
}

}  // namespace
}  // namespace flashmark
