// The device safety rules on synthetic inventories: mounted, held,
// protected, read-only and unnamed devices, with the findings the
// refusal names; and stacked devices (loops over devices, over files,
// over loops; dm over loops), judged all the way down.
#include "system/device_safety.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

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

TEST_F(SafetyRules, AnUnmountedVolumeBesideTheRootVolumeMayBeWritten) {
  // LVM: dm-2 (a benchmark volume) and dm-0 (/) share the physical volume
  // sda2; writing dm-2 writes only its own extents.
  BlockDevice dm2 = Device("dm-2", 17);
  dm2.path = "/dev/mapper/vg-bench";
  dm2.transport = "dm";
  dm2.members = {"sda2"};
  inventory_.devices.push_back(dm2);
  At("sda2").holders = {"dm-0", "dm-2"};
  EXPECT_EQ(Judge("dm-2", true).verdict, WriteVerdict::kAllowed)
      << Judge("dm-2", true).Message("/dev/mapper/vg-bench");
  EXPECT_EQ(Judge("sda2", true).verdict, WriteVerdict::kRefused);
}

BlockDevice Loop(unsigned minor_number) {
  BlockDevice loop = Device("loop" + std::to_string(minor_number), 0);
  loop.number = makedev(7, minor_number);
  loop.transport = "loop";
  return loop;
}

void BackWithDevice(BlockDevice& loop, const BlockDevice& device) {
  LoopBacking backing;
  backing.file = device.path;
  backing.identified = true;
  backing.file_device = makedev(0, 5);  // devtmpfs
  backing.inode = 1000 + minor(device.number);
  backing.block_device = device.number;
  loop.backing = backing;
  loop.detail = backing.file;
}

void BackWithFile(BlockDevice& loop, const std::string& file, dev_t on,
                  ino_t inode) {
  LoopBacking backing;
  backing.file = file;
  backing.identified = true;
  backing.file_device = on;
  backing.inode = inode;
  loop.backing = backing;
  loop.detail = file;
}

// vda holds / (ext4) and the backing files; loops stacked on it:
//   loop1 (a.img, ext4 at /mnt/a) <- loop2
//   loop3 (the database file)     <- loop4 <- loop5
//   loop6 (plain.img)             <- loop7
//   loop8 (/usr/lib/x.img); loop9 and loop10 (both shared.img)
//   loop11 (d.img, xfs at /mnt/d holding the --json output) <- loop12
//   loop13 (e.img) <- loop14 (ext4 at /mnt/e)
//   loop15 (the database file) <- dm-5 (dm linear)
//   loop16: backing known by name only
class StackedDevices : public ::testing::Test {
 protected:
  static constexpr ino_t kDatabaseInode = 200;

  void SetUp() override {
    const dev_t vda_number = makedev(254, 0);
    BlockDevice vda = Device("vda", 0);
    vda.number = vda_number;
    vda.mounts = {Mount("/", "ext4")};
    std::vector<BlockDevice> loops;
    for (unsigned i = 0; i <= 16; ++i) loops.push_back(Loop(i));
    BackWithFile(loops[1], "/tmp/t/a.img", vda_number, 101);
    loops[1].mounts = {Mount("/mnt/a", "ext4")};
    BackWithDevice(loops[2], loops[1]);
    BackWithFile(loops[3], "/tmp/t/flashmark.db", vda_number, kDatabaseInode);
    BackWithDevice(loops[4], loops[3]);
    BackWithDevice(loops[5], loops[4]);
    BackWithFile(loops[6], "/tmp/t/plain.img", vda_number, 106);
    BackWithDevice(loops[7], loops[6]);
    BackWithFile(loops[8], "/usr/lib/x.img", vda_number, 108);
    BackWithFile(loops[9], "/tmp/t/shared.img", vda_number, 109);
    BackWithFile(loops[10], "/tmp/t/shared.img", vda_number, 109);
    BackWithFile(loops[11], "/tmp/t/d.img", vda_number, 111);
    loops[11].mounts = {Mount("/mnt/d", "xfs")};
    BackWithDevice(loops[12], loops[11]);
    BackWithFile(loops[13], "/tmp/t/e.img", vda_number, 113);
    BackWithDevice(loops[14], loops[13]);
    loops[14].mounts = {Mount("/mnt/e", "ext4")};
    BackWithFile(loops[15], "/tmp/t/flashmark.db", vda_number, kDatabaseInode);
    loops[15].holders = {"dm-5"};
    loops[16].backing = LoopBacking{"/tmp/t/gone.img (deleted)"};
    BlockDevice dm5 = Device("dm-5", 0);
    dm5.number = makedev(253, 5);
    dm5.path = "/dev/mapper/on-db";
    dm5.transport = "dm";
    dm5.members = {"loop15"};
    inventory_.devices = {vda};
    for (unsigned i = 1; i < loops.size(); ++i) {
      inventory_.devices.push_back(loops[i]);
    }
    inventory_.devices.push_back(dm5);
    context_.protected_paths = {
        {"/ (the root filesystem)", vda_number},
        {"the --json output /mnt/d/r.json", makedev(7, 11)}};
    context_.protected_files = {
        {"the database /tmp/t/flashmark.db", vda_number, kDatabaseInode}};
  }

  SafetyVerdict Judge(const std::string& name, bool named = true) {
    const BlockDevice* device = inventory_.Find(name);
    EXPECT_NE(device, nullptr) << name;
    return JudgeWrite(inventory_, *device, named, context_);
  }

  DeviceInventory inventory_;
  SafetyContext context_;
};

TEST_F(StackedDevices, ALoopOverAMountedDeviceIsRefused) {
  const SafetyVerdict verdict = Judge("loop2");
  EXPECT_EQ(verdict.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(verdict.Message("/dev/loop2"),
            "refusing to write /dev/loop2: it is backed by /dev/loop1, which "
            "is in use; found /dev/loop1: ext4 mounted at /mnt/a");
  EXPECT_EQ(verdict.brief, "mounted (loop1)");
}

TEST_F(StackedDevices, ALoopOverTheDatabaseFileIsRefusedAtAnyDepth) {
  const SafetyVerdict direct = Judge("loop3");
  EXPECT_EQ(direct.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(direct.reason, "it is backed by the database /tmp/t/flashmark.db");
  EXPECT_EQ(direct.brief, "backed by the database");
  // loop4 is the one loop over loop3, so loop3 itself is in use too.
  EXPECT_EQ(Judge("loop4").reason,
            "it is backed by /dev/loop3, which is backed by the database "
            "/tmp/t/flashmark.db");
  EXPECT_EQ(Judge("loop5").reason,
            "it is backed by /dev/loop4, which is backed by /dev/loop3, "
            "which is backed by the database /tmp/t/flashmark.db");
  EXPECT_EQ(Judge("loop5").brief, "backed by the database (loop3)");
  // dm over the loop: the member layer is followed down to the file.
  EXPECT_EQ(Judge("dm-5").reason,
            "it is built on /dev/loop15, which is backed by the database "
            "/tmp/t/flashmark.db");
}

TEST_F(StackedDevices, ALoopOverAPlainFileMayBeWrittenWhenNamed) {
  EXPECT_EQ(Judge("loop7", false).verdict, WriteVerdict::kNeedsAllowDestroy);
  // The filesystem holding plain.img is mounted (it is /): that does not
  // count, only the file is written.
  EXPECT_EQ(Judge("loop7").verdict, WriteVerdict::kAllowed)
      << Judge("loop7").Message("/dev/loop7");
  // But loop6 backs loop7: writing it pulls loop7's contents away.
  const SafetyVerdict under = Judge("loop6");
  EXPECT_EQ(under.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(under.Message("/dev/loop6"),
            "refusing to write /dev/loop6: it is in use; found /dev/loop7: "
            "backed by /dev/loop6");
  EXPECT_EQ(under.brief, "backs loop7");
}

TEST_F(StackedDevices, ADeviceUnderAMountedLoopIsRefused) {
  const SafetyVerdict verdict = Judge("loop13");
  EXPECT_EQ(verdict.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(verdict.reason, "it is in use");
  EXPECT_TRUE(HasFinding(
      verdict, "/dev/loop14 (on /dev/loop13): ext4 mounted at /mnt/e"))
      << verdict.Message("/dev/loop13");
  EXPECT_EQ(Judge("loop14").brief, "mounted");
}

TEST_F(StackedDevices, ALoopOverTheDeviceHoldingTheJsonOutputIsRefused) {
  EXPECT_EQ(Judge("loop11").reason, "it holds the --json output /mnt/d/r.json");
  EXPECT_EQ(Judge("loop12").reason,
            "it is backed by /dev/loop11, which holds the --json output "
            "/mnt/d/r.json");
  // The file holding loop11's filesystem lies on vda: vda is under it.
  EXPECT_EQ(DevicesUnder(inventory_, makedev(7, 12)),
            (std::vector<std::string>{"loop12", "loop11", "vda"}));
}

TEST_F(StackedDevices, SystemSharedAndUnknownBackingFilesAreRefused) {
  const SafetyVerdict system = Judge("loop8");
  EXPECT_EQ(system.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(system.reason,
            "it is backed by /usr/lib/x.img, a file in the system directory "
            "/usr");
  const SafetyVerdict shared = Judge("loop9");
  EXPECT_EQ(shared.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(shared.Message("/dev/loop9"),
            "refusing to write /dev/loop9: it is backed by /tmp/t/shared.img, "
            "which is in use; found /dev/loop10: also backed by "
            "/tmp/t/shared.img");
  const SafetyVerdict unknown = Judge("loop16");
  EXPECT_EQ(unknown.verdict, WriteVerdict::kRefused);
  EXPECT_EQ(unknown.reason,
            "it is backed by /tmp/t/gone.img (deleted), which cannot be "
            "identified");
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
  // The program is also protected as a file: no loop it backs is written.
  ASSERT_EQ(stat("/proc/self/exe", &st), 0);
  bool program = false;
  for (const auto& file : context.protected_files) {
    program |= file.device == st.st_dev && file.inode == st.st_ino;
  }
  EXPECT_TRUE(program);
}

}  // namespace
}  // namespace flashmark
