// A sweep undoes only the mounts it made itself (issue 11, finding 6),
// root only: a tmpfs the user mounted at the campaign's mount point before
// the sweep is refused by name before any destructive step and survives
// with its files; and the mount ledger unmounts the campaign's own mount
// only while it is the one on top (never one stacked on it later).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "binary_runner.h"
#include "system/device_reset.h"
#include "system/external_command.h"
#include "system/mount_ledger.h"
#include "system/mount_table.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

std::optional<MountEntry> TopAt(const std::string& mount_point) {
  return TopMountAt(ReadMountTable(), ResolvedMountPoint(mount_point));
}

// Unmounts whatever is still mounted at `mount_point` when the test ends,
// even when it fails (a flashmark that mounted there and did not undo it),
// before the loop device and the directory go. Declared after the fixtures
// that mount there, so it runs first.
class UnmountAllAt {
 public:
  explicit UnmountAllAt(std::string mount_point)
      : mount_point_(std::move(mount_point)) {}
  ~UnmountAllAt() {
    for (int i = 0; i < 8 && TopAt(mount_point_); ++i) {
      (void)RunExternal({"umount", mount_point_});
    }
  }

 private:
  std::string mount_point_;
};

std::string Head(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string data(bytes, '\0');
  in.read(data.data(), static_cast<std::streamsize>(bytes));
  data.resize(static_cast<size_t>(in.gcount()));
  return data;
}

TEST(SweepMounts, RefusesAMountPointTheUserMountedAndKeepsIt) {
  FLASHMARK_REQUIRE_ROOT();
  for (const char* tool : {"mkfs.ext4", "blkdiscard", "mount"}) {
    if (!ProgramAvailable(tool)) GTEST_SKIP() << tool << " is not installed";
  }
  TempDir dir;
  LoopDevice device(dir.File("a.img"), 64ull << 20);
  ASSERT_TRUE(device.ok());
  {
    // Bytes the device starts with: a discard or mkfs would change them.
    std::ofstream head(device.device(), std::ios::binary);
    head << std::string(4096, 'k');
  }
  const std::string mount_point = dir.File("mnt");
  ASSERT_EQ(mkdir(mount_point.c_str(), 0755), 0);
  TmpfsMount users(mount_point, "8M");
  ASSERT_TRUE(users.ok());
  UnmountAllAt cleanup(mount_point);
  std::ofstream(mount_point + "/keep.txt") << "the user's";
  std::ofstream(dir.File("c.toml"))
      << "[workload]\nengine = \"psync\"\nmode = \"rndwr\"\n"
         "size = \"4M\"\nfile-num = 1\ntime = \"1s\"\n"
         "[targets]\npaths = [\""
      << mount_point << "\"]\ndevices = [\"" << device.device()
      << "\"]\n[[reset]]\nstep = \"discard\"\n"
         "[[reset]]\nstep = \"mkfs\"\nfilesystem = \"ext4\"\n"
         "options = [\"-q\", \"-F\"]\n"
         "[[reset]]\nstep = \"mount\"\nmount-point = \""
      << mount_point << "\"\n";
  const Invocation result =
      RunFlashmark({"sweep", dir.File("c.toml"), "--db", dir.File("s.db"),
                    "--allow-destroy", device.device()});
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  EXPECT_NE(result.err.find("refusing to mount at " +
                            ResolvedMountPoint(mount_point) + ": tmpfs (tmpfs"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("this campaign did not mount it"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(ReadFile(mount_point + "/keep.txt"), "the user's")
      << "the user's tmpfs is gone";
  const auto top = TopAt(mount_point);
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->filesystem, "tmpfs");
  EXPECT_EQ(Head(device.device(), 4096), std::string(4096, 'k'))
      << "a destructive step ran";
}

TEST(SweepMounts, LedgerUnmountsOnlyItsOwnMountWhileItIsOnTop) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string mount_point = dir.File("mnt");
  ASSERT_EQ(mkdir(mount_point.c_str(), 0755), 0);
  std::vector<std::pair<int64_t, bool>> saved;
  MountLedger ledger({}, [&](const MadeMount& mount, bool made) {
    saved.emplace_back(mount.mount_id, made);
    return OkStatus();
  });
  TmpfsMount campaigns(mount_point, "4M");  // as if a mount step made it
  ASSERT_TRUE(campaigns.ok());
  UnmountAllAt cleanup(mount_point);
  auto made = ledger.Record(mount_point);
  ASSERT_TRUE(made.ok()) << made.error().message;
  EXPECT_TRUE(ledger.CheckFree(mount_point).ok());
  ASSERT_EQ(saved.size(), 1u);
  EXPECT_EQ(saved[0], std::make_pair(made->mount_id, true));
  {
    TmpfsMount stacked(mount_point, "4M");  // someone mounts on top of it
    ASSERT_TRUE(stacked.ok());
    std::ofstream(mount_point + "/keep.txt") << "theirs";
    const Status free = ledger.CheckFree(mount_point);
    ASSERT_FALSE(free.ok());
    EXPECT_NE(free.error().message.find("this campaign did not mount it"),
              std::string::npos);
    std::ostringstream log;
    nlohmann::json record = nlohmann::json::array();
    ASSERT_TRUE(ledger.Release(mount_point, log, record).ok());
    EXPECT_EQ(record.size(), 0u) << record.dump();
    EXPECT_NE(log.str().find("not unmounting"), std::string::npos) << log.str();
    EXPECT_EQ(ReadFile(mount_point + "/keep.txt"), "theirs");
    EXPECT_EQ(ledger.made().size(), 1u);
  }
  // Uncovered again: now it goes, and the ledger forgets it.
  const auto top = TopAt(mount_point);
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->mount_id, made->mount_id);
  std::ostringstream log;
  nlohmann::json record = nlohmann::json::array();
  ASSERT_TRUE(ledger.Release(mount_point, log, record).ok());
  EXPECT_EQ(record.size(), 1u) << log.str();
  EXPECT_FALSE(TopAt(mount_point).has_value());
  EXPECT_TRUE(ledger.made().empty());
  ASSERT_EQ(saved.size(), 2u);
  EXPECT_EQ(saved[1], std::make_pair(made->mount_id, false));
}

// A run killed with its sweep lets go of its files a moment after the
// sweep dies: the resumed sweep's unmount waits for that ("target is
// busy" retried for a while) instead of failing every cell.
TEST(SweepMounts, UnmountWaitsForAProcessThatIsLettingGo) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string mount_point = dir.File("m");
  mkdir(mount_point.c_str(), 0755);
  TmpfsMount mounted(mount_point, "4M");
  ASSERT_TRUE(mounted.ok());
  // A child holding a file open there for a second.
  const pid_t holder = fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    std::ofstream held(mount_point + "/held");
    held << "x" << std::flush;
    sleep(1);
    _exit(0);
  }
  usleep(200'000);  // the file is open by now
  auto unmounted = UnmountPoint(mount_point);
  int status = 0;
  waitpid(holder, &status, 0);
  ASSERT_TRUE(unmounted.ok()) << unmounted.error().message;
  EXPECT_NE(unmounted->note.find("the mount point was busy at"),
            std::string::npos)
      << "the first umount found it busy: " << unmounted->note;
  ASSERT_EQ(unmounted->commands.size(), 1u) << "the umount that worked";
  EXPECT_EQ(unmounted->commands[0].exit_status, 0);
  EXPECT_FALSE(TopAt(mount_point).has_value()) << "still mounted";
}

}  // namespace
}  // namespace flashmark::testing
