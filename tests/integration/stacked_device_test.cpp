// Stacked devices and swapped links on real loop devices (root only): a
// write is judged on everything underneath its target (a loop over a
// mounted loop, a mounted loop over the target, a loop over the database
// file, one or two levels down), and on the device it opened, so a link
// flipping between a named and an unnamed device never redirects a write;
// the sweep's reset tools get the kernel's node of the device judged.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "binary_runner.h"
#include "store/campaign_store.h"
#include "system/external_command.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

// A short sequential write of `device`, allowed by name.
Invocation WriteLoop(const std::string& device,
                     std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {
      "run", device,    "--mode", "seqwr", "--bs",
      "4k",  "--bytes", "64k",    "-q",    "--allow-destroy=" + device};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunFlashmark(args);
}

std::string Output(const Invocation& run) { return run.err + run.out; }

TEST(StackedDevices, ALoopOverAMountedLoopIsNeverWritten) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice lower(dir.File("lower.img"), 32 << 20);
  ASSERT_TRUE(lower.ok());
  ASSERT_EQ(RunTool({"mkfs.ext4", "-q", "-F", lower.device()}), 0);
  const std::string mount_point = dir.File("mnt");
  std::filesystem::create_directory(mount_point);
  DeviceMount mounted(lower.device(), mount_point);
  ASSERT_TRUE(mounted.ok());
  LoopOver upper(lower.device());
  ASSERT_TRUE(upper.ok());
  const Invocation refused = WriteLoop(upper.device(), {"--no-db"});
  EXPECT_EQ(refused.exit_code, 2) << Output(refused);
  EXPECT_NE(refused.err.find("refusing to write " + upper.device() +
                             ": it is backed by " + lower.device() +
                             ", which is in use; found "),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("; " + lower.device() + ": ext4 mounted at " +
                             mount_point),
            std::string::npos)
      << refused.err;
}

TEST(StackedDevices, ADeviceUnderAMountedLoopIsNeverWritten) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice lower(dir.File("lower.img"), 32 << 20);
  ASSERT_TRUE(lower.ok());
  LoopOver upper(lower.device());
  ASSERT_TRUE(upper.ok());
  ASSERT_EQ(RunTool({"mkfs.ext4", "-q", "-F", upper.device()}), 0);
  const std::string mount_point = dir.File("mnt");
  std::filesystem::create_directory(mount_point);
  DeviceMount mounted(upper.device(), mount_point);
  ASSERT_TRUE(mounted.ok());
  // The kernel lets this one be opened exclusively: the rules must see it.
  const Invocation refused = WriteLoop(lower.device(), {"--no-db"});
  EXPECT_EQ(refused.exit_code, 2) << Output(refused);
  EXPECT_NE(refused.err.find("refusing to write " + lower.device() +
                             ": it is in use"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find(upper.device() + " (on " + lower.device() +
                             "): ext4 mounted at " + mount_point),
            std::string::npos)
      << refused.err;
}

TEST(StackedDevices, ALoopOverTheDatabaseOrJsonIsNeverWritten) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string db = dir.File("runs.db");
  const Invocation created = RunFlashmark(
      {"run", "--engine", "null", "--bytes", "1M", "-q", "--db=" + db});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  const std::string before = ReadFile(db);
  ASSERT_GE(before.size(), 4096u);

  LoopOver one(db);
  ASSERT_TRUE(one.ok());
  const Invocation direct = WriteLoop(one.device(), {"--db=" + db});
  EXPECT_EQ(direct.exit_code, 2) << Output(direct);
  EXPECT_NE(direct.err.find("refusing to write " + one.device() +
                            ": it is backed by the database " + db),
            std::string::npos)
      << direct.err;

  LoopOver two(one.device());
  ASSERT_TRUE(two.ok());
  const Invocation stacked = WriteLoop(two.device(), {"--db=" + db});
  EXPECT_EQ(stacked.exit_code, 2) << Output(stacked);
  EXPECT_NE(stacked.err.find("refusing to write " + two.device() +
                             ": it is backed by " + one.device() +
                             ", which is backed by the database " + db),
            std::string::npos)
      << stacked.err;
  EXPECT_TRUE(ReadFile(db) == before) << "the database was written";

  const std::string out = dir.File("run.json");
  std::ofstream(out) << std::string(64 << 10, ' ');
  LoopOver over_json(out);
  ASSERT_TRUE(over_json.ok());
  const Invocation json_output =
      WriteLoop(over_json.device(), {"--no-db", "--json", out});
  EXPECT_EQ(json_output.exit_code, 2) << Output(json_output);
  EXPECT_NE(json_output.err.find("it is backed by the --json output " + out),
            std::string::npos)
      << json_output.err;
}

TEST(StackedDevices, LoopsOverPlainFilesAreWrittenWhenNamed) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice lower(dir.File("plain.img"), 16 << 20);
  ASSERT_TRUE(lower.ok());
  const Invocation plain = WriteLoop(lower.device(), {"--no-db"});
  EXPECT_EQ(plain.exit_code, 0) << Output(plain);

  LoopOver upper(lower.device());
  ASSERT_TRUE(upper.ok());
  const Invocation stacked = WriteLoop(upper.device(), {"--no-db"});
  EXPECT_EQ(stacked.exit_code, 0) << Output(stacked);
  // Writing the lower one now pulls the upper one's contents away.
  const Invocation under = WriteLoop(lower.device(), {"--no-db"});
  EXPECT_EQ(under.exit_code, 2) << Output(under);
  EXPECT_NE(under.err.find("refusing to write " + lower.device() +
                           ": it is in use; found " + upper.device() +
                           ": backed by " + lower.device()),
            std::string::npos)
      << under.err;
}

std::string FirstMiB(const std::string& device) {
  std::string data(1 << 20, '\0');
  const int fd = open(device.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  const ssize_t got = pread(fd, data.data(), data.size(), 0);
  close(fd);
  return got == static_cast<ssize_t>(data.size()) ? data : "";
}

// A link flipping between a named and an unnamed device while runs write
// through it: each run writes the named one or is refused, never the
// unnamed one.
TEST(StackedDevices, AFlippingLinkNeverRedirectsAWrite) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice named(dir.File("named.img"), 8 << 20);
  LoopDevice unnamed(dir.File("unnamed.img"), 8 << 20);
  ASSERT_TRUE(named.ok() && unnamed.ok());
  std::string pattern(1 << 20, '\0');
  for (size_t i = 0; i < pattern.size(); ++i) {
    pattern[i] = static_cast<char>("flashmark"[i % 9] ^ (i >> 12));
  }
  {
    const int fd = open(unnamed.device().c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(pwrite(fd, pattern.data(), pattern.size(), 0),
              static_cast<ssize_t>(pattern.size()));
    ASSERT_EQ(fsync(fd), 0);
    close(fd);
  }
  ASSERT_TRUE(FirstMiB(unnamed.device()) == pattern);

  const std::string link = dir.File("link");
  const std::string staged = dir.File("link.new");
  ASSERT_EQ(symlink(named.device().c_str(), link.c_str()), 0);
  std::atomic<bool> stop{false};
  std::thread flipper([&] {
    for (uint64_t i = 1; !stop.load(); ++i) {
      const std::string& to = i % 2 ? unnamed.device() : named.device();
      unlink(staged.c_str());
      if (symlink(to.c_str(), staged.c_str()) == 0) {
        std::rename(staged.c_str(), link.c_str());
      }
      usleep(100);
    }
  });
  int written = 0;
  int refused = 0;
  for (int run = 0; run < 16; ++run) {
    const Invocation result = RunFlashmark(
        {"run", link, "--mode", "seqwr", "--bs", "64k", "--bytes", "1M", "-q",
         "--no-db", "--allow-destroy=" + named.device()});
    if (result.exit_code == 0) ++written;
    if (result.exit_code == 2) ++refused;
    EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 2)
        << Output(result);
    if (FirstMiB(unnamed.device()) != pattern) {
      ADD_FAILURE() << "run " << run << " wrote the unnamed device "
                    << unnamed.device() << ": " << Output(result);
      break;
    }
  }
  stop = true;
  flipper.join();
  EXPECT_TRUE(FirstMiB(unnamed.device()) == pattern)
      << "the unnamed device was written";
  // Both ways were taken (16 runs, each ~1/2).
  EXPECT_GT(written, 0);
  EXPECT_GT(refused, 0);
}

// The sweep's destructive steps give their tool the kernel's node of the
// device judged, not the campaign's link to it.
TEST(StackedDevices, ResetToolsGetTheJudgedDeviceNotTheLink) {
  FLASHMARK_REQUIRE_ROOT();
  if (!ProgramAvailable("blkdiscard")) GTEST_SKIP() << "no blkdiscard";
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 16 << 20);
  ASSERT_TRUE(loop.ok());
  const std::string link = dir.File("disk");
  ASSERT_EQ(symlink(loop.device().c_str(), link.c_str()), 0);
  const std::string db = dir.File("s.db");
  std::ofstream(dir.File("c.toml"))
      << "[campaign]\nname = \"link\"\n"
         "[workload]\nengine = \"psync\"\nmode = \"rndrd\"\nbs = \"4k\"\n"
         "time = \"1s\"\n"
         "[targets]\npaths = [\""
      << link
      << "\"]\n"
         "[[reset]]\nstep = \"discard\"\n";
  const Invocation sweep = RunFlashmark(
      {"sweep", dir.File("c.toml"), "--db", db, "-q", "--allow-destroy", link});
  ASSERT_EQ(sweep.exit_code, 0) << Output(sweep);
  auto store = CampaignStore::Open(db);
  ASSERT_TRUE(store.ok());
  auto cells = store->Cells(1);
  ASSERT_TRUE(cells.ok());
  ASSERT_EQ(cells->size(), 1u);
  const auto& reset = cells->front().reset;
  ASSERT_EQ(reset.size(), 1u) << reset.dump();
  EXPECT_EQ(reset[0]["device"], loop.device());
  EXPECT_EQ(reset[0]["commands"][0]["argv"],
            (nlohmann::json{"blkdiscard", loop.device()}));
}

}  // namespace
}  // namespace flashmark::testing
