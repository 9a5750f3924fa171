#include "store/campaign_store.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "config/campaign_plan.h"
#include "model/interval_merge.h"
#include "store/sqlite.h"

namespace flashmark {
namespace {

class CampaignStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/tmp/flashmark-campaign-test.XXXXXX";
    directory_ = mkdtemp(pattern.data());
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  std::string path() const { return directory_ + "/runs.db"; }

  static std::vector<CampaignCell> TwoCells() {
    std::vector<CampaignCell> cells(2);
    cells[0].index = 0;
    cells[0].parameters = {{"size", "1G"}, {"threads", "1"}};
    cells[1].index = 1;
    cells[1].parameters = {{"size", "1G"}, {"threads", "2"}};
    return cells;
  }

  std::string directory_;
};

TEST_F(CampaignStoreTest, KeepsCellsThroughTheirLifecycle) {
  auto store = CampaignStore::Open(path());
  ASSERT_TRUE(store.ok()) << store.error().message;
  CampaignSpec spec;
  spec.name = "fill";
  spec.file_hash = "abc123";
  spec.text = "[matrix]\nsize = [\"50G\", \"90G\"]\n";
  auto id = store->Create(spec, "/x/fill.toml", TwoCells(),
                          "flashmark sweep fill.toml");
  ASSERT_TRUE(id.ok()) << id.error().message;
  // The file's text is kept with it (show --campaign).
  auto found = store->Find(*id);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->file_text, spec.text);

  auto cells = store->Cells(*id);
  ASSERT_TRUE(cells.ok());
  ASSERT_EQ(cells->size(), 2u);
  EXPECT_EQ((*cells)[1].parameters, TwoCells()[1].parameters);
  EXPECT_EQ((*cells)[0].status, CellStatus::kPending);
  EXPECT_FALSE((*cells)[0].finished());

  ASSERT_TRUE(store->StartCell(*id, 0).ok());
  ASSERT_TRUE(store->SetCellRun(*id, 0, 17).ok() == false)
      << "run 17 does not exist: the foreign key must refuse it";
  const nlohmann::json reset = {
      {{"step", "discard"}, {"device", "/dev/loop9"}}};
  ASSERT_TRUE(store->FinishCell(*id, 0, CellStatus::kOk, reset, "").ok());
  ASSERT_TRUE(store->StartCell(*id, 1).ok());
  ASSERT_TRUE(store
                  ->FinishCell(*id, 1, CellStatus::kFailed,
                               nlohmann::json::array(), "mkfs.xfs failed")
                  .ok());
  ASSERT_TRUE(store->StartCell(*id, 1).ok());  // a second attempt

  cells = store->Cells(*id);
  ASSERT_TRUE(cells.ok());
  EXPECT_EQ((*cells)[0].status, CellStatus::kOk);
  EXPECT_TRUE((*cells)[0].finished());
  EXPECT_EQ((*cells)[0].reset, reset);
  EXPECT_EQ((*cells)[1].status, CellStatus::kRunning);
  EXPECT_EQ((*cells)[1].attempts, 2);
  EXPECT_TRUE((*cells)[1].error.empty())
      << "a restarted cell forgets its old error";

  // This process runs it: "running"; the latest for the file is this one.
  auto latest = store->LatestForFile("/x/fill.toml");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->id, *id);
  EXPECT_EQ((*latest)->status, CampaignStatus::kRunning);
  EXPECT_EQ((*latest)->file_hash, "abc123");
  ASSERT_TRUE(store->Finish(*id, CampaignStatus::kInterrupted).ok());
  EXPECT_EQ(store->Find(*id)->status, CampaignStatus::kInterrupted);
  auto none = store->LatestForFile("/x/other.toml");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_EQ(store->Find(99).error().exit_code, kUsageExit);
  EXPECT_FALSE(store->StartCell(*id, 5).ok()) << "no cell 6";
}

// A campaign is claimed in one transaction that checks its owner: refused
// while a live process runs it (this one), taken when its owner is gone.
TEST_F(CampaignStoreTest, ClaimRefusesALiveOwnerAndTakesOverADeadOne) {
  auto store = CampaignStore::Open(path());
  ASSERT_TRUE(store.ok()) << store.error().message;
  CampaignSpec spec;
  spec.name = "fill";
  auto id = store->Create(spec, "/x/fill.toml", TwoCells(),
                          "flashmark sweep fill.toml");
  ASSERT_TRUE(id.ok());
  const Status live = store->Claim(*id);
  ASSERT_FALSE(live.ok()) << "claimed from a live owner";
  EXPECT_EQ(live.error().exit_code, kUsageExit);
  EXPECT_NE(live.error().message.find(
                fmt::format("is being run by process {} on ", getpid())),
            std::string::npos)
      << live.error().message;

  // Owned by a process that has ended: taken over.
  const pid_t gone = fork();
  if (gone == 0) _exit(0);
  ASSERT_GT(gone, 0);
  waitpid(gone, nullptr, 0);
  auto db = Database::Open(path(), false);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(
      db->Execute(fmt::format("UPDATE campaigns SET pid = {}", gone)).ok());
  EXPECT_EQ(store->Find(*id)->status, CampaignStatus::kInterrupted);
  ASSERT_TRUE(store->Claim(*id).ok());
  EXPECT_EQ(store->Find(*id)->pid, getpid());
  EXPECT_EQ(store->Find(*id)->status, CampaignStatus::kRunning);

  ASSERT_TRUE(store->Finish(*id, CampaignStatus::kFinished).ok());
  const Status finished = store->Claim(*id);
  ASSERT_FALSE(finished.ok());
  EXPECT_NE(finished.error().message.find("finished"), std::string::npos);
}

TEST_F(CampaignStoreTest, KeepsThePlanAndTheMountsACampaignMade) {
  auto store = CampaignStore::Open(path());
  ASSERT_TRUE(store.ok()) << store.error().message;
  CampaignSpec spec;
  spec.name = "fill";
  auto cells = TwoCells();
  cells[1].options.targets = {"/mnt/a"};
  auto id =
      store->Create(spec, "/x/fill.toml", cells, "flashmark sweep fill.toml");
  ASSERT_TRUE(id.ok());
  auto stored = store->Cells(*id);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ((*stored)[1].plan, CellPlanJson(spec, cells[1]));
  EXPECT_EQ((*stored)[1].plan["targets"], nlohmann::json::array({"/mnt/a"}));

  const MadeMount a{"/mnt/a", "/dev/loop7", 412, 0x700007};
  const MadeMount b{"/mnt/b", "/dev/loop8", 413, 0x700008};
  ASSERT_TRUE(store->SaveMount(*id, a, true).ok());
  ASSERT_TRUE(store->SaveMount(*id, b, true).ok());
  ASSERT_TRUE(store->SaveMount(*id, a, false).ok());
  auto mounts = store->Mounts(*id);
  ASSERT_TRUE(mounts.ok()) << mounts.error().message;
  ASSERT_EQ(mounts->size(), 1u);
  EXPECT_EQ((*mounts)[0].mount_point, "/mnt/b");
  EXPECT_EQ((*mounts)[0].source, "/dev/loop8");
  EXPECT_EQ((*mounts)[0].mount_id, 413);
  EXPECT_EQ((*mounts)[0].device, 0x700008u);
  EXPECT_TRUE(store->Mounts(*id + 1)->empty());
}

TEST(IntervalMerge, SumsCountersAndMergesHistograms) {
  IntervalSample a, b;
  a.index = 3;
  a.start_ns = 3'000'000'000;
  a.end_ns = 4'000'000'000;
  a.write = {10, 40960};
  a.errors = 1;
  a.write_latency.Add(1000);
  b.write = {5, 20480};
  b.read = {2, 8192};
  b.partial = true;
  b.write_latency.Add(3000);
  b.write_latency.Add(5000);
  MergeInterval(a, b);
  EXPECT_EQ(a.index, 3u);
  EXPECT_EQ(a.end_ns, 4'000'000'000u);
  EXPECT_EQ(a.write.ios, 15u);
  EXPECT_EQ(a.write.bytes, 61440u);
  EXPECT_EQ(a.read.ios, 2u);
  EXPECT_EQ(a.errors, 1u);
  EXPECT_TRUE(a.partial);
  EXPECT_EQ(a.write_latency.count(), 3u);
  EXPECT_NEAR(a.write_latency.Quantile(0.5), 3000, 3);
}

}  // namespace
}  // namespace flashmark
