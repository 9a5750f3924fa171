// The device safety rules on synthetic inventories: mounted, held,
// protected, read-only and unnamed devices, with the findings the
// refusal names.
#include "system/device_safety.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <gtest/gtest.h>

namespace flashmark {
namespace {

BlockDevice Device(const std::string& name, unsigned minor_number,
                   const std::string& parent = "") {
  BlockDevice device;
  device.name = name;
  device.path = "/dev/" + name;
  device.number = makedev(8, minor_number);
  device.parent = parent;
  device.transport = "SATA";
  device.capacity_bytes = 1ull << 30;
  device.probed = true;
  return device;
}

MountEntry Mount(const std::string& mount_point, const std::string& fs) {
  MountEntry mount;
  mount.mount_point = mount_point;
  mount.filesystem = fs;
  return mount;
}

DeviceSignature Signature(const std::string& type, const std::string& usage) {
  return DeviceSignature{type, usage, "", ""};
}

bool HasFinding(const SafetyVerdict& verdict, const std::string& text) {
  for (const auto& finding : verdict.findings) {
    if (finding == text) return true;
  }
  return false;
}

// sda (system disk: sda1 /boot, sda2 under dm-0 holding /), sdb (data
// disk: sdb1 xfs at /data), sdc and sdd (md0 members), sde (blank),
// loop3 (an xfs signature, not mounted), loop4 (a partition table).
class SafetyRules : public ::testing::Test {
 protected:
  void SetUp() override {
    BlockDevice sda = Device("sda", 0);
    sda.partitions = {"sda1", "sda2", "sda3"};
    BlockDevice sda1 = Device("sda1", 1, "sda");
    sda1.signatures = {Signature("ext4", "filesystem")};
    sda1.mounts = {Mount("/boot", "ext4")};
    BlockDevice sda2 = Device("sda2", 2, "sda");
    sda2.signatures = {Signature("LVM2_member", "raid")};
    sda2.holders = {"dm-0"};
    BlockDevice sda3 = Device("sda3", 3, "sda");
    BlockDevice dm0 = Device("dm-0", 16);
    dm0.path = "/dev/mapper/vg-root";
    dm0.transport = "dm";
    dm0.detail = "vg-root";
    dm0.members = {"sda2"};
    dm0.mounts = {Mount("/", "ext4")};
    BlockDevice sdb = Device("sdb", 32);
    sdb.partitions = {"sdb1"};
    sdb.signatures = {Signature("gpt", "partition table")};
    BlockDevice sdb1 = Device("sdb1", 33, "sdb");
    sdb1.signatures = {Signature("xfs", "filesystem")};
    sdb1.mounts = {Mount("/data", "xfs")};
    BlockDevice sdc = Device("sdc", 48);
    sdc.holders = {"md0"};
    sdc.signatures = {Signature("linux_raid_member", "raid")};
    BlockDevice sdd = Device("sdd", 64);
    sdd.holders = {"md0"};
    BlockDevice md0 = Device("md0", 80);
    md0.transport = "md";
    md0.detail = "raid0";
    md0.members = {"sdc", "sdd"};
    BlockDevice sde = Device("sde", 96);
    BlockDevice loop3 = Device("loop3", 112);
    loop3.signatures = {Signature("xfs", "filesystem")};
    BlockDevice loop4 = Device("loop4", 128);
    loop4.signatures = {Signature("dos", "partition table")};
    inventory_.devices = {sda, sda1, sda2, sda3, dm0,   sdb,  sdb1,
                          sdc, sdd,  md0,  sde,  loop3, loop4};
    context_.protected_paths = {{"/ (the root filesystem)", dm0.number}};
  }

  SafetyVerdict Judge(const std::string& name, bool named) {
    const BlockDevice* device = inventory_.Find(name);
    EXPECT_NE(device, nullptr) << name;
    return JudgeWrite(inventory_, *device, named, context_);
  }

  BlockDevice& At(const std::string& name) {
    for (auto& device : inventory_.devices) {
      if (device.name == name) return device;
    }
    ADD_FAILURE() << "no " << name;
    return inventory_.devices.front();
  }

  DeviceInventory inventory_;
  SafetyContext context_;
};

TEST_F(SafetyRules, BlankDeviceNeedsOnlyItsName) {
  const SafetyVerdict unnamed = Judge("sde", false);
  EXPECT_EQ(unnamed.verdict, WriteVerdict::kNeedsAllowDestroy);
  EXPECT_EQ(unnamed.Message("/dev/sde"),
            "refusing to write /dev/sde: it is not named in --allow-destroy; "
            "found no filesystem, partition table or RAID signature");
  EXPECT_EQ(
      unnamed.hint,
      "if everything on it may be destroyed, add --allow-destroy=/dev/sde");
  EXPECT_EQ(unnamed.brief, "empty");
  EXPECT_EQ(Judge("sde", true).verdict, WriteVerdict::kAllowed);
}

TEST_F(SafetyRules, SignatureIsNamedInTheRefusal) {
  const SafetyVerdict verdict = Judge("loop3", false);
  EXPECT_EQ(verdict.verdict, WriteVerdict::kNeedsAllowDestroy);
  EXPECT_EQ(verdict.Message("/dev/loop3"),
            "refusing to write /dev/loop3: it is not named in --allow-destroy; "
            "found /dev/loop3: xfs signature (not mounted)");
  EXPECT_EQ(verdict.brief, "xfs");
  EXPECT_EQ(Judge("loop3", true).verdict, WriteVerdict::kAllowed);

  const SafetyVerdict table = Judge("loop4", false);
  EXPECT_TRUE(HasFinding(table, "/dev/loop4: dos partition table"));
  EXPECT_EQ(Judge("loop4", true).verdict, WriteVerdict::kAllowed);
}

TEST_F(SafetyRules, MountedPartitionRefusesTheWholeDiskEvenWhenNamed) {
  const SafetyVerdict verdict = Judge("sdb", true);
  EXPECT_EQ(verdict.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(verdict.reason, "it is in use");
  EXPECT_EQ(verdict.brief, "mounted");
  EXPECT_TRUE(HasFinding(verdict, "/dev/sdb1: xfs mounted at /data"));
  EXPECT_TRUE(HasFinding(verdict, "/dev/sdb: gpt partition table"));
  EXPECT_NE(verdict.Message("/dev/sdb")
                .find("refusing to write /dev/sdb: it is in use; found "),
            std::string::npos);
  EXPECT_EQ(Judge("sdb1", true).verdict, WriteVerdict::kRefused);
}

TEST_F(SafetyRules, MdMembersAreRefusedTheArrayItselfIsNot) {
  const SafetyVerdict member = Judge("sdd", true);
  EXPECT_EQ(member.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(member.brief, "member of md0");
  EXPECT_TRUE(HasFinding(member, "/dev/sdd: member of /dev/md0 (raid0)"));
  EXPECT_TRUE(HasFinding(Judge("sdc", true),
                         "/dev/sdc: md RAID member (linux_raid_member)"));
  // Benchmarking the (unmounted) array is what it is for.
  EXPECT_EQ(Judge("md0", true).verdict, WriteVerdict::kAllowed);
  At("md0").mounts = {Mount("/raid", "xfs")};
  EXPECT_EQ(Judge("md0", true).verdict, WriteVerdict::kRefused);
  EXPECT_TRUE(HasFinding(Judge("sdc", true),
                         "/dev/md0 (on /dev/sdc): xfs mounted at /raid"));
}

TEST_F(SafetyRules, DeviceHoldingRootIsRefusedThroughDmAndPartitions) {
  for (const char* name : {"sda", "sda2", "dm-0"}) {
    const SafetyVerdict verdict = Judge(name, true);
    SCOPED_TRACE(name);
    EXPECT_EQ(verdict.verdict, WriteVerdict::kRefused);
    EXPECT_EQ(verdict.reason, "it holds / (the root filesystem)");
    EXPECT_EQ(verdict.brief, "holds /");
  }
  // A spare partition of the system disk holds nothing protected.
  EXPECT_EQ(Judge("sda3", true).verdict, WriteVerdict::kAllowed);
  // /boot is mounted: refused, but as in use, not as holding /.
  EXPECT_EQ(Judge("sda1", true).reason, "it is in use");
}

TEST_F(SafetyRules, DevicesUnderFollowMembersAndWholeDisks) {
  const auto under = DevicesUnder(inventory_, makedev(8, 16));
  EXPECT_EQ(under, (std::vector<std::string>{"dm-0", "sda2", "sda"}));
  EXPECT_TRUE(DevicesUnder(inventory_, makedev(0, 42)).empty())
      << "tmpfs and other device-less filesystems protect nothing";
}

TEST_F(SafetyRules, ReadOnlyAndUnreadableDevices) {
  At("sde").read_only = true;
  const SafetyVerdict read_only = Judge("sde", true);
  EXPECT_EQ(read_only.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(read_only.reason, "it is read-only");

  BlockDevice& loop3 = At("loop3");
  loop3.signatures.clear();
  loop3.probed = false;
  loop3.probe_error =
      "/dev/loop3: cannot read its signatures: Permission denied";
  const SafetyVerdict unknown = Judge("loop3", false);
  EXPECT_EQ(unknown.brief, "unreadable");
  EXPECT_TRUE(HasFinding(unknown, loop3.probe_error));
}

TEST_F(SafetyRules, SwapInUseIsRefused) {
  BlockDevice& sde = At("sde");
  sde.signatures = {Signature("swap", "other")};
  MountEntry swap = Mount("[SWAP]", "swap");
  sde.mounts = {swap};
  const SafetyVerdict verdict = Judge("sde", true);
  EXPECT_EQ(verdict.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(verdict.brief, "swap");
  EXPECT_TRUE(HasFinding(verdict, "/dev/sde: swap area in use"));
}

TEST(SafetyContext, ProtectsTheRootFilesystemWhenItIsOnABlockDevice) {
  const SafetyContext context = CaptureSafetyContext("/tmp/flashmark-x.db");
  // "/" on a block device (not an overlay or tmpfs) is always protected;
  // the program and a database on the same filesystem follow it.
  for (const auto& entry : context.protected_paths) {
    EXPECT_NE(entry.device, 0u) << entry.what;
  }
  bool root = false;
  for (const auto& entry : context.protected_paths) {
    root |= entry.what == "/ (the root filesystem)";
  }
  struct stat st;
  ASSERT_EQ(stat("/", &st), 0);
  if (major(st.st_dev) != 0) {
    EXPECT_TRUE(root);
  }
}

}  // namespace
}  // namespace flashmark
