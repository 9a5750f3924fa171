// The pure parts of the device inventory and its report: name order,
// /proc/swaps, attaching mounts to devices, the table and the JSON
// document of `flashmark devices`, and which directories a file set may
// never be laid out in.
#include "system/device_inventory.h"

#include <gtest/gtest.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <sstream>

#include "report/device_report.h"
#include "system/file_set.h"

namespace flashmark {
namespace {

TEST(DeviceInventory, NamesSortNaturally) {
  std::vector<std::string> names = {"loop10",    "sdb", "loop2", "nvme0n1p10",
                                    "nvme0n1p2", "sda", "loop1"};
  std::sort(names.begin(), names.end(), NaturalLess);
  EXPECT_EQ(names,
            (std::vector<std::string>{"loop1", "loop2", "loop10", "nvme0n1p2",
                                      "nvme0n1p10", "sda", "sdb"}));
  EXPECT_FALSE(NaturalLess("sda", "sda"));
}

TEST(DeviceInventory, SwapPartitionsAreKeptSwapFilesAreNot) {
  const auto swaps = ParseSwaps(
      "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
      "/dev/sdz9                               partition\t1048572\t\t0\t\t-2\n"
      "/swap\\040file                          file\t\t1048572\t\t0\t\t-3\n");
  ASSERT_EQ(swaps.size(), 1u);
  EXPECT_EQ(swaps[0].source, "/dev/sdz9");
  EXPECT_EQ(swaps[0].mount_point, "[SWAP]");
  EXPECT_EQ(swaps[0].filesystem, "swap");
}

TEST(DeviceInventory, MountsAttachByDeviceNumber) {
  BlockDevice disk;
  disk.name = "vdz";
  disk.number = makedev(254, 0);
  BlockDevice other;
  other.name = "vdy";
  other.number = makedev(254, 16);
  std::vector<BlockDevice> devices = {disk, other};
  const auto mounts = ParseMountInfo(
      "27 1 254:0 / / rw,relatime - ext4 /dev/vdz rw\n"
      "28 27 254:0 /srv /mnt/bind rw - ext4 /dev/vdz rw\n"
      "30 25 0:27 / /dev/shm rw,relatime - tmpfs tmpfs rw\n");
  AttachMounts(mounts, devices);
  ASSERT_EQ(devices[0].mounts.size(), 2u);
  EXPECT_EQ(devices[0].mounts[0].mount_point, "/");
  EXPECT_EQ(devices[0].mounts[1].mount_point, "/mnt/bind");
  EXPECT_TRUE(devices[1].mounts.empty());
}

TEST(FileSetSafety, SystemDirectoriesAreProtected) {
  EXPECT_EQ(ProtectedSystemDirectory("/"), "/");
  EXPECT_EQ(ProtectedSystemDirectory("/etc"), "/etc");
  EXPECT_EQ(ProtectedSystemDirectory("/etc/ssl/private"), "/etc");
  EXPECT_EQ(ProtectedSystemDirectory("/usr/local/lib"), "/usr");
  EXPECT_EQ(ProtectedSystemDirectory("/var/lib/mysql"), "/var/lib");
  EXPECT_EQ(ProtectedSystemDirectory("/var"), "/var");
  EXPECT_EQ(ProtectedSystemDirectory("/home"), "/home");
  EXPECT_EQ(ProtectedSystemDirectory("/proc/self"), "/proc");
  EXPECT_EQ(ProtectedSystemDirectory("/var/tmp/bench"), "");
  EXPECT_EQ(ProtectedSystemDirectory("/home/me/bench"), "");
  EXPECT_EQ(ProtectedSystemDirectory("/mnt/ssd"), "");
  EXPECT_EQ(ProtectedSystemDirectory("/tmp"), "");
  EXPECT_EQ(ProtectedSystemDirectory("/etcetera"), "")
      << "a prefix is no parent";
  EXPECT_EQ(ProtectedSystemDirectory("/dev/shm/bench"), "") << "tmpfs";
}

DeviceListing SampleListing() {
  ListedDevice disk;
  disk.device.name = "nvme0n1";
  disk.device.path = "/dev/nvme0n1";
  disk.device.number = makedev(259, 0);
  disk.device.transport = "NVMe";
  disk.device.model = "INTEL SSDPEDMD400G4 WITH A VERY LONG MODEL NAME";
  disk.device.capacity_bytes = 400ull * 1000 * 1000 * 1000;
  disk.device.scheduler = "none";
  disk.device.partitions = {"nvme0n1p1"};
  disk.device.probed = true;
  disk.device.signatures = {{"gpt", "partition table", "", ""}};
  disk.safety.verdict = WriteVerdict::kRefused;
  disk.safety.reason = "it is in use";
  disk.safety.brief = "mounted";
  disk.safety.findings = {
      "/dev/nvme0n1p1: xfs mounted at /mnt/a/very/long/mount/point/name"};
  disk.health.source = "smartctl";
  disk.health.percentage_used = 3;
  ListedDevice partition;
  partition.device.name = "nvme0n1p1";
  partition.device.path = "/dev/nvme0n1p1";
  partition.device.parent = "nvme0n1";
  partition.device.capacity_bytes = disk.device.capacity_bytes;
  partition.device.probed = true;
  partition.device.signatures = {{"xfs", "filesystem", "data", "1234"}};
  MountEntry mount;
  mount.mount_point = "/mnt/a/very/long/mount/point/name";
  mount.filesystem = "xfs";
  partition.device.mounts = {mount};
  partition.safety = disk.safety;
  DeviceListing listing;
  listing.devices = {disk, partition};
  listing.empty_devices = 6;
  return listing;
}

TEST(DeviceReport, TableFitsAndNamesWhatItFound) {
  std::ostringstream out;
  PrintDeviceTable(SampleListing(), out);
  const std::string text = out.str();
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line.rfind("NAME", 0), 0u);
  EXPECT_NE(line.find("SAFE TO WRITE"), std::string::npos);
  for (int row = 0; row < 2 && std::getline(lines, line); ++row) {
    EXPECT_LE(line.size(), 140u) << line;
  }
  EXPECT_NE(text.find("  nvme0n1p1"), std::string::npos)
      << "partitions indented";
  EXPECT_NE(text.find("no: mounted"), std::string::npos);
  EXPECT_NE(text.find("6 empty devices not shown"), std::string::npos);
  EXPECT_NE(text.find("smartctl not installed"), std::string::npos);
  EXPECT_NE(text.find("found /dev/nvme0n1p1: xfs mounted at"),
            std::string::npos);
  EXPECT_NE(text.find("health (smartctl): 3 % of rated wear used"),
            std::string::npos)
      << text;
}

TEST(DeviceReport, JsonCarriesSchemaAndEveryDevice) {
  const auto doc = DeviceListingJson(SampleListing());
  EXPECT_EQ(doc["schema"], "flashmark.devices");
  EXPECT_EQ(doc["schema_version"], 1);
  ASSERT_EQ(doc["devices"].size(), 2u);
  EXPECT_EQ(doc["devices"][0]["major"], 259);
  EXPECT_TRUE(doc["devices"][0]["parent"].is_null());
  EXPECT_EQ(doc["devices"][1]["parent"], "nvme0n1");
  EXPECT_EQ(doc["devices"][1]["signatures"][0]["type"], "xfs");
  EXPECT_EQ(doc["devices"][1]["mounts"][0]["filesystem"], "xfs");
  EXPECT_EQ(doc["devices"][0]["safe_to_write"]["verdict"], "refused");
  EXPECT_EQ(doc["devices"][0]["health"]["percentage_used"], 3);
  EXPECT_TRUE(doc["devices"][0]["health"]["media_errors"].is_null());
  EXPECT_FALSE(doc["health_tools"]["smartctl"].get<bool>());
}

}  // namespace
}  // namespace flashmark
