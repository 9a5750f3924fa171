// `flashmark sweep` on loop devices the test creates (root only; skipped
// elsewhere): two devices, discard + mkfs.xfs + mount before each cell,
// 2 sizes x 2 thread counts; the sweep is killed with SIGKILL in the
// middle of a cell and resumed: every cell is stored exactly once, the
// interrupted cell is rerun after its devices were reset again, each cell
// has a run per target and their aggregate, and the mounts the sweep made
// are gone at the end.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include "binary_runner.h"
#include "common/shell_quote.h"
#include "store/campaign_store.h"
#include "store/run_store.h"
#include "system/external_command.h"
#include "system/mount_table.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

bool IsMounted(const std::string& mount_point) {
  for (const auto& mount : ReadMountTable()) {
    if (mount.mount_point == mount_point) return true;
  }
  return false;
}

// Unmounts what a failed test may leave, before the loop devices detach.
struct UnmountAtExit {
  std::vector<std::string> points;
  ~UnmountAtExit() {
    for (const auto& point : points) {
      while (IsMounted(point)) {
        if (RunTool({"umount", point}) != 0) break;
      }
    }
  }
};

TEST(SweepOnLoopDevices, KilledMidCellResumesWithEveryCellStoredOnce) {
  FLASHMARK_REQUIRE_ROOT();
  for (const char* tool : {"mkfs.xfs", "blkdiscard", "mount"}) {
    if (!ProgramAvailable(tool)) GTEST_SKIP() << tool << " is not installed";
  }
  TempDir dir;
  LoopDevice a(dir.File("a.img"), 400ull << 20);
  LoopDevice b(dir.File("b.img"), 400ull << 20);
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string mount_a = dir.File("ma");
  const std::string mount_b = dir.File("mb");
  UnmountAtExit cleanup{{mount_a, mount_b}};
  const std::string db = dir.File("s.db");
  std::ofstream(dir.File("c.toml"))
      << "[campaign]\nname = \"loops\"\n"
         "[workload]\nengine = \"psync\"\nmode = \"rndwr\"\nbs = "
         "\"4k\"\nfile-num = 2\n"
         "time = \"3s\"\n"
         "[targets]\npaths = [\""
      << mount_a << "\", \"" << mount_b
      << "\"]\n"
         "devices = [\""
      << a.device() << "\", \"" << b.device()
      << "\"]\n"
         "[matrix]\nsize = [\"16M\", \"32M\"]\nthreads = [1, 2]\n"
         "[[reset]]\nstep = \"discard\"\n"
         "[[reset]]\nstep = \"mkfs\"\nfilesystem = \"xfs\"\noptions = [\"-f\", "
         "\"-q\"]\n"
         "[[reset]]\nstep = \"mount\"\ndevice = \""
      << a.device() << "\"\nmount-point = \"" << mount_a
      << "\"\noptions = \"noatime\"\n"
         "[[reset]]\nstep = \"mount\"\ndevice = \""
      << b.device() << "\"\nmount-point = \"" << mount_b << "\"\n";
  const std::vector<std::string> sweep = {
      "sweep",    dir.File("c.toml"), "--db",    db, "--allow-destroy",
      a.device(), "--allow-destroy",  b.device()};

  // Without --allow-destroy nothing is touched.
  const Invocation refused =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", db});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--allow-destroy=" + a.device()),
            std::string::npos)
      << refused.err;

  const int pid = StartFlashmark(sweep, dir.File("out"), dir.File("err"));
  bool in_cell_two = false;
  for (int i = 0; i < 600 && !in_cell_two; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto runs = RunStore::Open(db);
    if (!runs.ok()) continue;
    RunFilter filter;
    filter.tags = {{"cell", "2"}};
    auto found = runs->ListRuns(filter);
    if (!found.ok() || found->empty()) continue;
    auto whole = runs->LoadRun(found->front().id, false);
    in_cell_two = whole.ok() && !whole->run.intervals.empty();
  }
  ASSERT_TRUE(in_cell_two) << ReadFile(dir.File("out"))
                           << ReadFile(dir.File("err"));
  kill(pid, SIGKILL);
  EXPECT_EQ(WaitFlashmark(pid), 128 + SIGKILL);
  EXPECT_TRUE(IsMounted(mount_a))
      << "the killed sweep's mount should still be there";

  std::vector<std::string> resume = sweep;
  resume.push_back("--resume");
  resume.push_back("-q");
  const Invocation resumed = RunFlashmark(resume, 180);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err << resumed.out;
  EXPECT_NE(resumed.out.find("reset: umount " + mount_a), std::string::npos)
      << resumed.out;
  EXPECT_FALSE(IsMounted(mount_a)) << "the sweep leaves its mounts behind";
  EXPECT_FALSE(IsMounted(mount_b));

  auto store = CampaignStore::Open(db);
  ASSERT_TRUE(store.ok());
  auto cells = store->Cells(1);
  ASSERT_TRUE(cells.ok());
  ASSERT_EQ(cells->size(), 4u);
  auto runs = RunStore::Open(db);
  ASSERT_TRUE(runs.ok());
  // Two targets at once: per cell one run per target and their aggregate.
  std::map<std::string, std::vector<std::string>> parts_per_cell;
  RunFilter filter;
  filter.tags = {{"campaign", "1"}};
  auto stored = runs->ListRuns(filter);
  ASSERT_TRUE(stored.ok());
  for (const auto& run : *stored) {
    std::map<std::string, std::string> tags(run.labels.tags.begin(),
                                            run.labels.tags.end());
    EXPECT_EQ(run.run.status, RunStatus::kOk) << "run " << run.id;
    parts_per_cell[tags["cell"]].push_back(tags["part"]);
  }
  for (auto& [cell, found] : parts_per_cell)
    std::sort(found.begin(), found.end());
  std::vector<std::string> parts = {mount_a, mount_b, "all"};
  std::sort(parts.begin(), parts.end());
  EXPECT_EQ(parts_per_cell,
            (std::map<std::string, std::vector<std::string>>{
                {"1", parts}, {"2", parts}, {"3", parts}, {"4", parts}}));
  for (const auto& cell : *cells) {
    SCOPED_TRACE("cell " + std::to_string(cell.index + 1));
    EXPECT_EQ(cell.status, CellStatus::kOk) << cell.error;
    EXPECT_EQ(cell.attempts, cell.index == 1 ? 2 : 1);
    ASSERT_TRUE(cell.run_id.has_value());
    // Its devices were reset before it: discard, mkfs, mount, in order.
    std::vector<std::string> steps;
    for (const auto& step : cell.reset) {
      steps.push_back(step["step"].get<std::string>() + " " +
                      step["device"].get<std::string>());
      for (const auto& command : step["commands"])
        EXPECT_EQ(command["exit_status"], 0);
    }
    const std::vector<std::string> expected = {
        "unmount " + mount_a,    "unmount " + mount_b, "discard " + a.device(),
        "discard " + b.device(), "mkfs " + a.device(), "mkfs " + b.device(),
        "mount " + a.device(),   "mount " + b.device()};
    if (cell.index == 0) {
      EXPECT_EQ(steps,
                std::vector<std::string>(expected.begin() + 2, expected.end()));
    } else {
      EXPECT_EQ(steps, expected);
    }
    auto run = runs->LoadRun(*cell.run_id, false);
    ASSERT_TRUE(run.ok());
    ASSERT_EQ(run->run.environment.targets.size(), 2u);
    EXPECT_EQ(run->run.environment.targets[0].filesystem, "xfs");
    EXPECT_EQ(run->run.environment.targets[1].mount_point, mount_b);
  }
  // `show` of a cell's run prints those steps with their commands.
  const Invocation show =
      RunFlashmark({"show", std::to_string(*cells->back().run_id), "--db", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("  mkfs " + a.device() + "\n    mkfs.xfs -f"),
            std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("  -> exit status 0, "), std::string::npos)
      << show.out;
}

// The shipped alternative to md RAID-0 (this kernel has none): the example
// as written, cut to two short cells, on two loop devices; the raid0 cell's
// btrfs spans both.
TEST(SweepOnLoopDevices, BtrfsRaid0ExampleStripesAcrossBothDevices) {
  FLASHMARK_REQUIRE_ROOT();
  if (access("/usr/sbin/mkfs.btrfs", X_OK) != 0 &&
      access("/sbin/mkfs.btrfs", X_OK) != 0) {
    GTEST_SKIP() << "mkfs.btrfs is not installed (scripts/setup.sh --test "
                    "installs btrfs-progs)";
  }
  TempDir dir;
  LoopDevice a(dir.File("a.img"), 256ull << 20);
  LoopDevice b(dir.File("b.img"), 256ull << 20);
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string mount = dir.File("stripe");
  UnmountAtExit cleanup{{mount}};
  std::string text = ReadFile(std::string(FLASHMARK_SOURCE_DIR) +
                              "/examples/single-vs-btrfs-raid0.toml");
  const auto replace = [&text](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("size = \"8G\"", "size = \"32M\"");
  replace("time = \"30m\"", "time = \"1s\"");
  replace("mode = [\"rndrd\", \"rndwr\"]", "mode = [\"rndwr\"]");
  replace(
      "io = [{ engine = \"psync\" }, { engine = \"libaio\", iodepth = 32 }]",
      "io = [{ engine = \"psync\" }]");
  WriteText(dir.File("c.toml"), text);
  setenv("FLASHMARK_DEVICE", a.device().c_str(), 1);  // the child's
  setenv("FLASHMARK_DEVICE2", b.device().c_str(), 1);
  setenv("FLASHMARK_MOUNT", mount.c_str(), 1);
  const std::string db = dir.File("s.db");
  const Invocation swept = RunFlashmark(
      {"sweep", dir.File("c.toml"), "--db", db, "-q", "--allow-destroy",
       a.device(), "--allow-destroy", b.device()},
      180);
  unsetenv("FLASHMARK_DEVICE");
  unsetenv("FLASHMARK_DEVICE2");
  unsetenv("FLASHMARK_MOUNT");
  ASSERT_EQ(swept.exit_code, 0) << swept.out << swept.err;
  EXPECT_FALSE(IsMounted(mount));
  auto store = CampaignStore::Open(db);
  ASSERT_TRUE(store.ok());
  auto cells = store->Cells(1);
  ASSERT_TRUE(cells.ok());
  ASSERT_EQ(cells->size(), 2u);
  auto runs = RunStore::Open(db);
  ASSERT_TRUE(runs.ok());
  for (const StoredCell& cell : *cells) {
    SCOPED_TRACE("cell " + std::to_string(cell.index + 1));
    EXPECT_EQ(cell.status, CellStatus::kOk) << cell.error;
    // The cell's own mkfs: the first device alone, or both as one RAID-0.
    std::string mkfs;
    for (const auto& step : cell.reset) {
      if (step.value("step", "") == "exec")
        mkfs = ShellJoin(step["argv"].get<std::vector<std::string>>());
    }
    EXPECT_EQ(mkfs, cell.index == 0 ? "mkfs.btrfs -f -q " + a.device()
                                    : "mkfs.btrfs -f -q -d raid0 -m raid0 " +
                                          a.device() + " " + b.device());
    ASSERT_TRUE(cell.run_id.has_value());
    auto run = runs->LoadRun(*cell.run_id, false);
    ASSERT_TRUE(run.ok());
    ASSERT_EQ(run->run.environment.targets.size(), 1u);
    EXPECT_EQ(run->run.environment.targets[0].filesystem, "btrfs");
    EXPECT_GT(run->run.summary.write.ios, 0u);
  }
  const Invocation report =
      RunFlashmark({"report", "--campaign", "1", "--by", "layout", "--db", db});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("by layout"), std::string::npos) << report.out;
}

}  // namespace
}  // namespace flashmark::testing
