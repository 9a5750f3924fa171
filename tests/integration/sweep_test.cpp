// `flashmark sweep --dry-run` on every shipped example and on bad files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

const std::string kRoot = FLASHMARK_SOURCE_DIR;

TEST(SweepDryRun, EveryShippedExamplePlans) {
  const std::pair<const char*, int> examples[] = {
      {"fill-sweep", 16},     {"threads-sync", 10},
      {"single-vs-raid0", 8}, {"single-vs-btrfs-raid0", 8},
      {"snia-iops", 1400},    {"quick", 6},
      {"db-profiles", 3},     {"cloud", 2}};
  for (const auto& [name, cells] : examples) {
    const Invocation result = RunFlashmark(
        {"sweep", kRoot + "/examples/" + name + ".toml", "--dry-run"});
    SCOPED_TRACE(name);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(
        result.out.find("\n" + std::to_string(cells) + " cells; estimated"),
        std::string::npos)
        << result.out.substr(result.out.size() > 300 ? result.out.size() - 300
                                                     : 0);
  }
  const Invocation fill =
      RunFlashmark({"sweep", kRoot + "/examples/fill-sweep.toml", "--dry-run"});
  EXPECT_NE(fill.out.find("#2    size=90G"), std::string::npos);
  EXPECT_NE(fill.out.find("reset: mkfs.xfs -f /dev/fioa"), std::string::npos);
  // The dry run says which devices the real one destroys and what it will
  // ask for; the quick example destroys nothing.
  EXPECT_NE(fill.out.find("warning: destroys /dev/fioa (discard, mkfs), not "
                          "present now, not named in --allow-destroy\n"
                          "the sweep will refuse to start without: "
                          "--allow-destroy=/dev/fioa\n"),
            std::string::npos)
      << fill.out;
  // Every device the sweep writes, the array the runs write included, and
  // each from the $FLASHMARK_* overrides.
  setenv("FLASHMARK_DEVICE", "/dev/flashmark-test-a", 1);  // the child's
  setenv("FLASHMARK_DEVICE2", "/dev/flashmark-test-b", 1);
  setenv("FLASHMARK_RAID", "/dev/flashmark-test-md", 1);
  const Invocation raid = RunFlashmark(
      {"sweep", kRoot + "/examples/single-vs-raid0.toml", "--dry-run"});
  unsetenv("FLASHMARK_DEVICE");
  unsetenv("FLASHMARK_DEVICE2");
  unsetenv("FLASHMARK_RAID");
  for (const char* line :
       {"reset: exec mdadm --create /dev/flashmark-test-md --run --level=0 "
        "--raid-devices=2 --chunk=64 /dev/flashmark-test-a "
        "/dev/flashmark-test-b\n",
        "warning: destroys /dev/flashmark-test-a (discard, run writes)",
        "warning: destroys /dev/flashmark-test-b (discard)",
        "warning: destroys /dev/flashmark-test-md (run writes), not present "
        "now",
        "--allow-destroy=/dev/flashmark-test-a "
        "--allow-destroy=/dev/flashmark-test-b "
        "--allow-destroy=/dev/flashmark-test-md\n"}) {
    EXPECT_NE(raid.out.find(line), std::string::npos) << line << "\n"
                                                      << raid.out;
  }
  EXPECT_EQ(raid.out.find("fioa"), std::string::npos);
  const Invocation quick =
      RunFlashmark({"sweep", kRoot + "/examples/quick.toml", "--dry-run"});
  EXPECT_EQ(quick.out.find("destroys"), std::string::npos) << quick.out;
}

TEST(SweepDryRun, NamesADeviceAllowedToBeDestroyed) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  setenv("FLASHMARK_DEVICE", loop.device().c_str(), 1);  // the child's
  const Invocation plan =
      RunFlashmark({"sweep", kRoot + "/examples/fill-sweep.toml", "--dry-run",
                    "--allow-destroy", loop.device()});
  unsetenv("FLASHMARK_DEVICE");
  EXPECT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("note: destroys " + loop.device() +
                          " (discard, mkfs), allowed by --allow-destroy"),
            std::string::npos)
      << plan.out;
  EXPECT_EQ(plan.out.find("refuse to start without"), std::string::npos);
}

// A fill sweep whose sizes outgrow the device fails at its first cell too
// large, hours in: refused before anything is touched, listed by the dry run.
TEST(SweepDryRun, CellsLargerThanTheirDeviceAreRefusedUpFront) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  setenv("FLASHMARK_DEVICE", loop.device().c_str(), 1);  // the child's
  setenv("FLASHMARK_MOUNT", dir.File("mnt").c_str(), 1);
  const std::vector<std::string> sweep{"sweep",
                                       kRoot + "/examples/fill-sweep.toml",
                                       "--allow-destroy",
                                       loop.device(),
                                       "--db",
                                       dir.File("runs.db")};
  std::vector<std::string> dry = sweep;
  dry.push_back("--dry-run");
  const Invocation plan = RunFlashmark(dry);
  const Invocation run = RunFlashmark(sweep);
  unsetenv("FLASHMARK_DEVICE");
  unsetenv("FLASHMARK_MOUNT");
  EXPECT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("warning: cell #1 (size=50G): a file set of 50 GiB "
                          "on " +
                          loop.device() + ", which holds 64 MiB\n"),
            std::string::npos)
      << plan.out;
  EXPECT_NE(plan.out.find("warning: cell #16 (size=650G)"), std::string::npos);
  EXPECT_NE(plan.out.find("the sweep will refuse to start: a cell's file set "
                          "is larger than its device"),
            std::string::npos);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("error: cell #1 (size=50G): a file set of 50 GiB on " +
                         loop.device() +
                         ", which holds 64 MiB (and 15 more "
                         "cells): it cannot be laid out"),
            std::string::npos)
      << run.err;
  // Nothing was touched: no campaign stored, the device still all zeros.
  EXPECT_FALSE(std::filesystem::exists(dir.File("runs.db")));
  EXPECT_EQ(ReadFile(dir.File("disk.img")).find_first_not_of('\0'),
            std::string::npos);
}

// A campaign whose runs write a raw device is refused before its first
// cell unless --allow-destroy names the device (not cell by cell).
TEST(SweepDryRun, RunsThatWriteARawDeviceNeedItAllowedUpFront) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  WriteText(dir.File("raw.toml"),
            "[workload]\nmode = \"rndwr\"\ntime = \"1s\"\n"
            "[targets]\npaths = [\"" +
                loop.device() + "\"]\n[matrix]\nthreads = [1, 2]\n");
  const Invocation refused = RunFlashmark(
      {"sweep", dir.File("raw.toml"), "--db", dir.File("runs.db")});
  EXPECT_EQ(refused.exit_code, 2) << refused.out;
  EXPECT_NE(refused.err.find("the campaign's runs (they write it) would "
                             "destroy " +
                             loop.device()),
            std::string::npos)
      << refused.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("runs.db")));
  const Invocation plan =
      RunFlashmark({"sweep", dir.File("raw.toml"), "--dry-run"});
  EXPECT_NE(plan.out.find("warning: destroys " + loop.device() +
                          " (run writes), not named in --allow-destroy"),
            std::string::npos)
      << plan.out;
}

TEST(SweepDryRun, BadFilesAreUsageErrors) {
  const Invocation missing =
      RunFlashmark({"sweep", "/nonexistent.toml", "--dry-run"});
  EXPECT_EQ(missing.exit_code, 2);
  const Invocation unknown = RunFlashmark(
      {"sweep", kRoot + "/tests/fixtures/campaigns/unknown_key.toml",
       "--dry-run"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("did you mean"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("unknown_key.toml:"), std::string::npos)
      << unknown.err;
}

}  // namespace
}  // namespace flashmark::testing
