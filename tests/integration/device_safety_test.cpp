// Integration tests on real kernel objects (root only): block devices are
// written only when named in --allow-destroy and never while mounted;
// O_DIRECT alignment errors come before any IO; ENOSPC and EIO during a
// run stop it cleanly with the file and offset, keeping the intervals.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

TEST(DeviceSafety, BlockDeviceWritesNeedAllowDestroy) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  const Invocation refused = RunFlashmark(
      {"run", loop.device(), "--mode", "rndwr", "--bs", "4k", "--time", "1s"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("not named in --allow-destroy"), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("--allow-destroy=" + loop.device()),
            std::string::npos);

  const Invocation other =
      RunFlashmark({"run", loop.device(), "--mode", "rndwr", "--bs", "4k",
                    "--time", "1s", "--allow-destroy=/dev/loop999"});
  EXPECT_EQ(other.exit_code, 2)
      << "naming another device does not allow this one";

  const Invocation allowed = RunFlashmark(
      {"run", loop.device(), "--mode", "rndwr", "--bs", "4k", "--time", "1s",
       "--direct", "--engine", "io_uring", "--iodepth", "8", "--json", "-",
       "-q", "--allow-destroy=" + loop.device()});
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  const json doc = json::parse(allowed.out);
  EXPECT_GT(doc["summary"]["write"]["ios"].get<uint64_t>(), 0u);
  const json& target = doc["environment"]["targets"][0];
  EXPECT_EQ(target["kind"], "block device");
  // The disk's facts come from sysfs.
  EXPECT_EQ(target["device_name"].get<std::string>().rfind("loop", 0), 0u);
  EXPECT_EQ(target["capacity_bytes"], 64 << 20);
  EXPECT_FALSE(target["scheduler"].get<std::string>().empty());
  EXPECT_GT(target["queue_depth"].get<int>(), 0);

  const Invocation read = RunFlashmark({"run", loop.device(), "--mode", "rndrd",
                                        "--bs", "4k", "--time", "1s", "-q"});
  EXPECT_EQ(read.exit_code, 0) << "reading needs no permission: " << read.err;
}

TEST(DeviceSafety, MountedDeviceIsNeverWritten) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  ASSERT_EQ(RunTool({"mkfs.ext4", "-q", "-F", loop.device()}), 0);
  const std::string mount_point = dir.File("mnt");
  std::filesystem::create_directory(mount_point);
  ASSERT_EQ(RunTool({"mount", loop.device(), mount_point}), 0);
  const Invocation refused =
      RunFlashmark({"run", loop.device(), "--mode", "rndwr", "--time", "1s",
                    "--allow-destroy=" + loop.device()});
  RunTool({"umount", mount_point});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(
      refused.err.find(loop.device() + ": ext4 mounted at " + mount_point),
      std::string::npos)
      << refused.err;
}

TEST(DeviceSafety, DirectIoWithUnsupportedBlockSizeFailsBeforeRunning) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 16 << 20, 4096);
  ASSERT_TRUE(loop.ok());
  const Invocation result =
      RunFlashmark({"run", loop.device(), "--mode", "rndrd", "--direct", "--bs",
                    "512", "--time", "1s"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("O_DIRECT on " + loop.device() +
                            " needs multiples of 4096 bytes"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(result.out.find("[ "), std::string::npos) << "no interval ran";
}

TEST(Faults, NoSpaceStopsTheRunWithFileAndOffsetKeepingIntervals) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string mount_point = dir.File("small");
  std::filesystem::create_directory(mount_point);
  TmpfsMount tmpfs(mount_point, "8M");
  ASSERT_TRUE(tmpfs.ok());
  // seqwr lays out sparse files, so the 32 MiB set fits until written.
  const std::string out = dir.File("run.json");
  const Invocation result = RunFlashmark(
      {"run", mount_point, "--mode", "seqwr", "--size", "32M", "--file-num",
       "2", "--bs", "64k", "--time", "5s", "--rate", "20MiB/s", "--json", out});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.err.find("ENOSPC"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(mount_point + "/flashmark."), std::string::npos);
  EXPECT_NE(result.err.find("at offset"), std::string::npos);
  const json doc = json::parse(ReadFile(out));
  EXPECT_EQ(doc["status"], "failed");
  EXPECT_EQ(doc["error"]["errno"], 28);
  EXPECT_GE(doc["intervals"].size(), 1u);
  EXPECT_GT(doc["summary"]["write"]["bytes"].get<uint64_t>(), 4u << 20);
  EXPECT_FALSE(std::filesystem::exists(mount_point + "/flashmark.0"))
      << "the file set is removed after a failed run too";
}

TEST(Faults, ContinueOnErrorCountsErrorsPerInterval) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string mount_point = dir.File("small");
  std::filesystem::create_directory(mount_point);
  TmpfsMount tmpfs(mount_point, "4M");
  ASSERT_TRUE(tmpfs.ok());
  const Invocation result =
      RunFlashmark({"run", mount_point, "--mode", "seqwr", "--size", "16M",
                    "--file-num", "1", "--bs", "64k", "--time", "2s",
                    "--continue-on-error", "--json", "-", "-q"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["status"], "ok");
  EXPECT_GT(doc["summary"]["errors"].get<uint64_t>(), 0u);
  uint64_t per_interval = 0;
  for (const auto& interval : doc["intervals"])
    per_interval += interval["errors"].get<uint64_t>();
  EXPECT_EQ(per_interval, doc["summary"]["errors"].get<uint64_t>());
}

// The database on a filesystem that fills up during the run, no --json:
// the store gives up with a warning, the run goes on, and every interval
// is kept in a JSON file whose path is printed.
TEST(Faults, DatabaseOnAFullFilesystemKeepsTheMeasurements) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string mount_point = dir.File("tiny");
  std::filesystem::create_directory(mount_point);
  TmpfsMount tmpfs(mount_point, "160k");
  ASSERT_TRUE(tmpfs.ok());
  const Invocation result =
      RunFlashmark({"run", "--engine", "null", "--time", "2s", "--interval",
                    "10ms", "-q", "--db=" + mount_point + "/runs.db"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("warning: storing the run failed"),
            std::string::npos)
      << result.err;
  const std::string kept = "results kept in ";
  const size_t at = result.err.find(kept);
  ASSERT_NE(at, std::string::npos) << result.err;
  const size_t end = result.err.find('\n', at);
  const std::string path =
      result.err.substr(at + kept.size(), end - at - kept.size());
  const json doc = json::parse(ReadFile(path));
  std::filesystem::remove(path);
  EXPECT_EQ(doc["status"], "ok");
  uint64_t spanned = 0;  // a record may span intervals on a busy machine
  for (const auto& interval : doc["intervals"])
    spanned += interval.value("spans", 1);
  EXPECT_GE(spanned, 190u) << "every interval kept";

  // Already full before the run: refused before measuring, saying why.
  for (const char* name : {"/runs.db", "/runs.db-wal", "/runs.db-shm"}) {
    std::filesystem::remove(mount_point + name);
  }
  std::ofstream(mount_point + "/filler") << std::string(256 << 10, 'x');
  const Invocation full =
      RunFlashmark({"run", "--engine", "null", "--time", "1s", "-q",
                    "--db=" + mount_point + "/runs.db"});
  EXPECT_EQ(full.exit_code, 1) << full.err;
  EXPECT_NE(full.err.find(mount_point + "/runs.db"), std::string::npos)
      << full.err;
  EXPECT_NE(full.err.find("full"), std::string::npos) << full.err;
  EXPECT_NE(full.err.find("--no-db"), std::string::npos) << full.err;
  EXPECT_EQ(full.out.find("[ "), std::string::npos) << "no interval ran";
}

// A 64 MiB sparse backing file on a 4 MiB tmpfs: once the tmpfs is full
// the loop device fails writes. Direct writes see the kernel's answer at
// once (ENOSPC on current kernels, EIO on older ones); buffered writes see
// EIO when fsync flushes them.
class LoopOnFullTmpfs : public ::testing::Test {
 protected:
  void SetUp() override {
    FLASHMARK_REQUIRE_ROOT();
    mount_point_ = dir_.File("small");
    std::filesystem::create_directory(mount_point_);
    tmpfs_ = std::make_unique<TmpfsMount>(mount_point_, "4M");
    ASSERT_TRUE(tmpfs_->ok());
    loop_ = std::make_unique<LoopDevice>(mount_point_ + "/backing", 64 << 20);
    ASSERT_TRUE(loop_->ok());
  }
  void TearDown() override {
    loop_.reset();
    tmpfs_.reset();
  }
  TempDir dir_;
  std::string mount_point_;
  std::unique_ptr<TmpfsMount> tmpfs_;
  std::unique_ptr<LoopDevice> loop_;
};

TEST_F(LoopOnFullTmpfs, DirectWriteErrorNamesDeviceAndOffset) {
  const std::string device = loop_->device();
  const std::string out = dir_.File("run.json");
  const Invocation result = RunFlashmark(
      {"run", device, "--mode", "seqwr", "--bs", "64k", "--direct", "--time",
       "5s", "--json", out, "--allow-destroy=" + device});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.err.find(device + " at offset"), std::string::npos)
      << result.err;
  const json doc = json::parse(ReadFile(out));
  EXPECT_EQ(doc["status"], "failed");
  EXPECT_EQ(doc["error"]["path"], device);
  const int error_number = doc["error"]["errno"];
  EXPECT_TRUE(error_number == EIO || error_number == ENOSPC) << error_number;
  EXPECT_GT(doc["summary"]["write"]["bytes"].get<uint64_t>(), 1u << 20);
}

TEST_F(LoopOnFullTmpfs, BufferedWritesFailWithEioAtFsync) {
  const std::string device = loop_->device();
  const Invocation result = RunFlashmark(
      {"run", device, "--mode", "seqwr", "--bs", "64k", "--fsync-every", "16",
       "--time", "5s", "--json", "-", "-q", "--allow-destroy=" + device});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.err.find("Input/output error"), std::string::npos)
      << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["status"], "failed");
  EXPECT_GE(doc["summary"]["errors"].get<uint64_t>(), 1u);
}

}  // namespace
}  // namespace flashmark::testing
