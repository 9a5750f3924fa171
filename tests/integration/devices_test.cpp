// Integration tests on real loop devices (root only): `flashmark devices`
// lists what is attached and what is on it; `flashmark run` refuses to
// write a device with a signature or a partition table unless it is named
// in --allow-destroy, a disk whose partition is mounted, and the device
// holding the database or the JSON output, whatever --allow-destroy says.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"
#include "system/external_command.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// The device named `name` in a `devices --json` document, or null.
json FindDevice(const json& doc, const std::string& name) {
  for (const auto& device : doc["devices"]) {
    if (device["name"] == name) return device;
  }
  return nullptr;
}

std::string KernelName(const std::string& path) { return path.substr(5); }

// Some kernels parse no partition tables (no CONFIG_MSDOS_PARTITION): the
// table is there for libblkid, but no partition device appears.
#define REQUIRE_PARTITION(loop)                                            \
  do {                                                                     \
    if (!std::filesystem::exists((loop).partition(1))) {                   \
      GTEST_SKIP() << "this kernel makes no partition devices from a DOS " \
                      "table (CONFIG_MSDOS_PARTITION); unit tests cover "  \
                      "the rule";                                          \
    }                                                                      \
  } while (0)

// A write that would succeed once allowed: 1 s of 4 KiB random writes.
Invocation WriteDevice(const std::string& device,
                       std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"run", device,   "--mode", "rndwr", "--bs",
                                   "4k",  "--time", "1s",     "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunFlashmark(args);
}

TEST(Devices, ListsALoopDeviceWithItsSizeAndXfsSignature) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 320 << 20);  // XFS needs 300 MiB
  ASSERT_TRUE(loop.ok());
  ASSERT_EQ(RunTool({"mkfs.xfs", "-q", "-f", "-K", loop.device()}), 0);
  const std::string name = KernelName(loop.device());

  const Invocation table = RunFlashmark({"devices"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.out.rfind("NAME", 0), 0u) << table.out;
  std::string row;
  for (size_t at = 0;
       (at = table.out.find("\n" + name + " ", at)) != std::string::npos;) {
    row = table.out.substr(at + 1, table.out.find('\n', at + 1) - at - 1);
    break;
  }
  ASSERT_FALSE(row.empty()) << table.out;
  EXPECT_NE(row.find("320 MiB"), std::string::npos) << row;
  EXPECT_NE(row.find("loop"), std::string::npos) << row;
  EXPECT_NE(row.find("xfs"), std::string::npos) << row;
  EXPECT_NE(row.find("with --allow-destroy"), std::string::npos) << row;
  EXPECT_NE(table.out.find("found " + loop.device() +
                           ": xfs signature (not mounted)"),
            std::string::npos);
  if (!ProgramAvailable("smartctl")) {
    EXPECT_NE(table.out.find("smartctl not installed"), std::string::npos);
  }

  const Invocation listed = RunFlashmark({"devices", "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const json doc = json::parse(listed.out);
  EXPECT_EQ(doc["schema"], "flashmark.devices");
  EXPECT_EQ(doc["schema_version"], 1);
  const json device = FindDevice(doc, name);
  ASSERT_TRUE(device.is_object()) << listed.out;
  EXPECT_EQ(device["path"], loop.device());
  EXPECT_EQ(device["capacity_bytes"], 320 << 20);
  EXPECT_EQ(device["transport"], "loop");
  EXPECT_EQ(device["detail"], dir.File("backing"));
  EXPECT_EQ(device["logical_sector_size"], 512);
  ASSERT_EQ(device["signatures"].size(), 1u);
  EXPECT_EQ(device["signatures"][0]["type"], "xfs");
  EXPECT_EQ(device["signatures"][0]["usage"], "filesystem");
  EXPECT_EQ(device["safe_to_write"]["verdict"], "needs-allow-destroy");
  EXPECT_EQ(device["health"]["unavailable"], "no SMART on loop devices");
  // Whatever holds / is never safe to write.
  for (const auto& other : doc["devices"]) {
    for (const auto& mount : other["mounts"]) {
      if (mount["mount_point"] != "/") continue;
      EXPECT_EQ(other["safe_to_write"]["verdict"], "refused") << other.dump();
    }
  }
}

// The run records the disk under its target as `devices` describes it,
// health included, and `show` prints it.
TEST(Devices, ARunRecordsItsDiskAndHealth) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  const std::string db = "--db=" + dir.File("runs.db");
  const Invocation run = WriteDevice(
      loop.device(),
      {"--allow-destroy=" + loop.device(), "--json", dir.File("run.json"), db});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(ReadFile(dir.File("run.json")));
  const json& target = doc["environment"]["targets"][0];
  EXPECT_EQ(target["device_name"], KernelName(loop.device()));
  EXPECT_EQ(target["transport"], "loop");
  EXPECT_EQ(target["capacity_bytes"], 64 << 20);
  EXPECT_EQ(target["health"]["unavailable"], "no SMART on loop devices");
  EXPECT_TRUE(target["health"]["bytes_written"].is_null());

  const Invocation shown = RunFlashmark({"show", "1", db});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("health: no SMART on loop devices"),
            std::string::npos)
      << shown.out;
}

TEST(Devices, PartitionsAreListedUnderTheirDiskWithMounts) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 64 << 20, 0, /*partition_table=*/true);
  ASSERT_TRUE(loop.ok());
  const json table = FindDevice(
      json::parse(RunFlashmark({"devices", "--json", "--no-health"}).out),
      KernelName(loop.device()));
  ASSERT_TRUE(table.is_object());
  EXPECT_EQ(table["signatures"][0]["type"], "dos");
  EXPECT_EQ(table["signatures"][0]["usage"], "partition table");
  EXPECT_EQ(table["safe_to_write"]["verdict"], "needs-allow-destroy");
  EXPECT_EQ(table["safe_to_write"]["findings"][0],
            loop.device() + ": dos partition table");

  REQUIRE_PARTITION(loop);
  ASSERT_EQ(RunTool({"mkfs.ext4", "-q", "-F", loop.partition(1)}), 0);
  const std::string mount_point = dir.File("mnt");
  std::filesystem::create_directory(mount_point);
  DeviceMount mounted(loop.partition(1), mount_point);
  ASSERT_TRUE(mounted.ok());
  const Invocation listed = RunFlashmark({"devices", "--json", "--no-health"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const json doc = json::parse(listed.out);
  const json disk = FindDevice(doc, KernelName(loop.device()));
  const json partition = FindDevice(doc, KernelName(loop.partition(1)));
  ASSERT_TRUE(disk.is_object() && partition.is_object()) << listed.out;
  EXPECT_EQ(disk["partitions"], json::array({KernelName(loop.partition(1))}));
  EXPECT_EQ(disk["safe_to_write"]["verdict"], "refused");
  EXPECT_EQ(partition["parent"], KernelName(loop.device()));
  EXPECT_EQ(partition["signatures"][0]["type"], "ext4");
  EXPECT_EQ(partition["mounts"][0]["mount_point"], mount_point);
  EXPECT_EQ(partition["safe_to_write"]["brief"], "mounted");
}

TEST(DeviceSafety, XfsSignatureIsNamedUnlessAllowed) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 320 << 20);
  ASSERT_TRUE(loop.ok());
  ASSERT_EQ(RunTool({"mkfs.xfs", "-q", "-f", "-K", loop.device()}), 0);
  const Invocation refused = WriteDevice(loop.device());
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("refusing to write " + loop.device() +
                             ": it is not named in --allow-destroy; found " +
                             loop.device() + ": xfs signature (not mounted)"),
            std::string::npos)
      << refused.err;
  const Invocation allowed =
      WriteDevice(loop.device(), {"--allow-destroy=" + loop.device()});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
}

TEST(DeviceSafety, PartitionTableIsNamedUnlessAllowed) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 64 << 20, 0, /*partition_table=*/true);
  ASSERT_TRUE(loop.ok());
  const Invocation refused = WriteDevice(loop.device());
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(
      refused.err.find("found " + loop.device() + ": dos partition table"),
      std::string::npos)
      << refused.err;
  const Invocation allowed =
      WriteDevice(loop.device(), {"--allow-destroy=" + loop.device()});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
}

TEST(DeviceSafety, MountedPartitionRefusesTheWholeDisk) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 64 << 20, 0, /*partition_table=*/true);
  ASSERT_TRUE(loop.ok());
  REQUIRE_PARTITION(loop);
  ASSERT_EQ(RunTool({"mkfs.ext4", "-q", "-F", loop.partition(1)}), 0);
  const std::string mount_point = dir.File("mnt");
  std::filesystem::create_directory(mount_point);
  DeviceMount mounted(loop.partition(1), mount_point);
  ASSERT_TRUE(mounted.ok());
  const Invocation refused =
      WriteDevice(loop.device(), {"--allow-destroy=" + loop.device()});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(
      refused.err.find("refusing to write " + loop.device() + ": it is in use"),
      std::string::npos)
      << refused.err;
  EXPECT_NE(
      refused.err.find(loop.partition(1) + ": ext4 mounted at " + mount_point),
      std::string::npos)
      << refused.err;
}

TEST(DeviceSafety, DeviceHoldingTheDatabaseOrJsonIsNeverWritten) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("backing"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  ASSERT_EQ(RunTool({"mkfs.ext4", "-q", "-F", loop.device()}), 0);
  const std::string mount_point = dir.File("results");
  std::filesystem::create_directory(mount_point);
  DeviceMount mounted(loop.device(), mount_point);
  ASSERT_TRUE(mounted.ok());
  const std::string db = mount_point + "/runs.db";
  const Invocation database = WriteDevice(
      loop.device(), {"--allow-destroy=" + loop.device(), "--db", db});
  EXPECT_EQ(database.exit_code, 2);
  EXPECT_NE(database.err.find("refusing to write " + loop.device() +
                              ": it holds the database " + db),
            std::string::npos)
      << database.err;
  EXPECT_FALSE(std::filesystem::exists(db))
      << "refused before the store opened";

  const std::string out = mount_point + "/run.json";
  const Invocation json_output = WriteDevice(
      loop.device(),
      {"--allow-destroy=" + loop.device(), "--no-db", "--json", out});
  EXPECT_EQ(json_output.exit_code, 2);
  EXPECT_NE(json_output.err.find("it holds the --json output " + out),
            std::string::npos)
      << json_output.err;
}

}  // namespace
}  // namespace flashmark::testing
