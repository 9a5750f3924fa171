// `flashmark capture` on real loop devices (root, with tracefs; elsewhere
// skipped with a message): a known workload (this test's own O_DIRECT
// writes and reads at known offsets) is found exactly, IO by IO, with its
// queue, issue and completion times in order, in the store and in the fio
// iolog written with -o; --pid keeps one process's IO and not another's,
// and ends with a note when that process exits; bad input is refused with
// exit 2 and nothing stored.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "common/result.h"
#include "store/fio_iolog_import.h"
#include "store/trace_store.h"
#include "system/target_sectors.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

// A capture started in the background, ready (its "capturing" line seen).
struct RunningCapture {
  int pid = -1;
  std::string out_path, err_path;
};

// Starts `flashmark capture ARGS`; skips the test (with what flashmark
// said) when this machine does not let it trace.
std::optional<RunningCapture> StartCapture(const std::vector<std::string>& args,
                                           const TempDir& dir) {
  std::vector<std::string> all = {"capture"};
  all.insert(all.end(), args.begin(), args.end());
  RunningCapture capture{-1, dir.File("capture.out"), dir.File("capture.err")};
  capture.pid = StartFlashmark(all, capture.out_path, capture.err_path);
  const bool ready = WaitFor(
      [&] {
        return ReadFile(capture.err_path).find("capturing") !=
                   std::string::npos ||
               ExitCodeIfEnded(capture.pid).has_value();
      },
      30);
  if (!ready ||
      ReadFile(capture.err_path).find("capturing") == std::string::npos) {
    return std::nullopt;
  }
  return capture;
}

// The stored trace a capture printed ("trace N: ...").
BlockIoTrace StoredTrace(const std::string& out, const std::string& db) {
  const size_t at = out.find("trace ");
  EXPECT_NE(at, std::string::npos) << out;
  const int64_t id = std::atoll(out.c_str() + at + 6);
  auto store = TraceStore::OpenForReading(db);
  EXPECT_TRUE(store.ok());
  auto trace = store->Load(id);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message);
  return trace.ok() ? *trace : BlockIoTrace{};
}

void* AlignedBuffer(size_t bytes) {
  void* buffer = nullptr;
  EXPECT_EQ(posix_memalign(&buffer, 4096, bytes), 0);
  std::memset(buffer, 0x5a, bytes);
  return buffer;
}

struct KnownIo {
  TraceOp op;
  uint64_t offset;
  uint32_t length;
};

void ExpectTimesInOrder(const TracedIo& io) {
  EXPECT_GE(io.queue_ns, 0);
  EXPECT_LE(io.queue_ns, io.issue_ns);
  EXPECT_LE(io.issue_ns, io.complete_ns);
}

TEST(Capture, FindsExactlyTheIosOfAKnownWorkload) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  const std::string db = dir.File("t.db");
  const std::string iolog = dir.File("capture.iolog");
  auto capture = StartCapture({loop.device(), "--db", db, "-o", iolog}, dir);
  if (!capture) {
    GTEST_SKIP() << "this machine does not let flashmark trace: "
                 << ReadFile(dir.File("capture.err"));
  }
  // 48 writes and 16 reads of 4, 8 and 64 KiB at known offsets, one at a
  // time (nothing to merge), the device kept open until the capture ends
  // (closing it written makes udev read it).
  std::vector<KnownIo> known;
  for (int k = 0; k < 64; ++k) {
    const uint32_t length = (k % 3 == 0 ? 4 : k % 3 == 1 ? 8 : 64) << 10;
    const uint64_t offset = static_cast<uint64_t>((k * 37) % 800) << 16;
    known.push_back(
        {k % 4 == 3 ? TraceOp::kRead : TraceOp::kWrite, offset, length});
  }
  const int fd = open(loop.device().c_str(), O_RDWR | O_DIRECT);
  ASSERT_GE(fd, 0);
  void* buffer = AlignedBuffer(64 << 10);
  for (const KnownIo& io : known) {
    const auto done =
        io.op == TraceOp::kWrite
            ? pwrite(fd, buffer, io.length, static_cast<off_t>(io.offset))
            : pread(fd, buffer, io.length, static_cast<off_t>(io.offset));
    ASSERT_EQ(done, static_cast<ssize_t>(io.length));
  }
  ASSERT_EQ(kill(capture->pid, SIGINT), 0);
  const int exit_code = WaitFlashmark(capture->pid);
  close(fd);
  free(buffer);
  const std::string out = ReadFile(capture->out_path);
  ASSERT_EQ(exit_code, 0) << ReadFile(capture->err_path);

  const BlockIoTrace trace = StoredTrace(out, db);
  EXPECT_EQ(trace.source, "capture");
  EXPECT_EQ(trace.origin, loop.device());
  EXPECT_TRUE(trace.complete);
  ASSERT_EQ(trace.devices.size(), 1u);
  EXPECT_EQ("/dev/" + trace.devices[0].name, loop.device());
  EXPECT_EQ(trace.devices[0].bytes, uint64_t{64} << 20);
  std::vector<TracedIo> mine;
  for (const TracedIo& io : trace.ios) {
    if (io.pid == static_cast<uint32_t>(getpid())) {
      mine.push_back(io);
    } else {
      // Only a probe of the new device (udev, blkid) may read beside us.
      EXPECT_EQ(io.op, TraceOp::kRead) << "pid " << io.pid;
    }
  }
  ASSERT_EQ(mine.size(), known.size()) << out;
  for (size_t k = 0; k < known.size(); ++k) {
    EXPECT_EQ(mine[k].op, known[k].op) << k;
    EXPECT_EQ(mine[k].offset, known[k].offset) << k;
    EXPECT_EQ(mine[k].length, known[k].length) << k;
    ExpectTimesInOrder(mine[k]);
    if (k > 0) {
      EXPECT_GE(mine[k].queue_ns, mine[k - 1].complete_ns) << k;
    }
  }
  EXPECT_FALSE(trace.processes.at(static_cast<uint32_t>(getpid())).empty());
  // The summary names the IOs; the iolog holds the same IOs.
  EXPECT_NE(out.find("IOPS"), std::string::npos) << out;
  auto log = ReadImportFile(iolog);
  ASSERT_TRUE(log.ok());
  auto back = ParseFioIolog(*log);
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->ios.size(), trace.ios.size());
  size_t found = 0;
  for (const TracedIo& io : back->ios) {
    for (const KnownIo& k : known) {
      if (io.op == k.op && io.offset == k.offset && io.length == k.length) {
        ++found;
        break;
      }
    }
  }
  EXPECT_GE(found, known.size());
  // Listed with the runs' store.
  const Invocation list = RunFlashmark({"list", "--traces", "--db", db});
  EXPECT_NE(list.out.find("capture"), std::string::npos) << list.out;
}

TEST(Capture, APartitionIsItsRangeWithOffsetsFromItsStart) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 32 << 20, 0, /*partition_table=*/true);
  ASSERT_TRUE(loop.ok());
  const std::string part = loop.partition(1);  // from 1 MiB on
  if (!std::filesystem::exists(part)) {
    GTEST_SKIP() << "this kernel makes no partition devices from a DOS table "
                    "(CONFIG_MSDOS_PARTITION); CaptureJoin's unit test covers "
                    "a partition's range";
  }
  const std::string db = dir.File("t.db");
  auto capture = StartCapture({part, "--db", db}, dir);
  if (!capture) {
    GTEST_SKIP() << "this machine does not let flashmark trace: "
                 << ReadFile(dir.File("capture.err"));
  }
  void* buffer = AlignedBuffer(4096);
  const int in_part = open(part.c_str(), O_WRONLY | O_DIRECT);
  const int whole = open(loop.device().c_str(), O_WRONLY | O_DIRECT);
  ASSERT_GE(in_part, 0);
  ASSERT_GE(whole, 0);
  for (const off_t at : {off_t{40960}, off_t{8192}, off_t{1 << 20}}) {
    ASSERT_EQ(pwrite(in_part, buffer, 4096, at), 4096);
  }
  // Before the partition, on its disk: not the partition's IO.
  ASSERT_EQ(pwrite(whole, buffer, 4096, 20480), 4096);
  ASSERT_EQ(kill(capture->pid, SIGINT), 0);
  const int exit_code = WaitFlashmark(capture->pid);
  close(in_part);
  close(whole);
  free(buffer);
  ASSERT_EQ(exit_code, 0) << ReadFile(capture->err_path);
  const BlockIoTrace trace = StoredTrace(ReadFile(capture->out_path), db);
  ASSERT_EQ(trace.devices.size(), 1u);
  EXPECT_EQ("/dev/" + trace.devices[0].name, part);
  std::vector<uint64_t> offsets;
  for (const TracedIo& io : trace.ios) {
    if (io.pid == static_cast<uint32_t>(getpid())) offsets.push_back(io.offset);
  }
  EXPECT_EQ(offsets, (std::vector<uint64_t>{40960, 8192, 1 << 20}));
}

// A process that waits for a byte on `go`, then writes `count` 4 KiB
// blocks with O_DIRECT into its file (allocated beforehand, opened before
// it starts) and exits.
pid_t StartFileWriter(const std::string& path, int count, int& go) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return -1;
  const int fd = open(path.c_str(), O_WRONLY | O_DIRECT);
  if (fd < 0) return -1;
  const pid_t child = fork();
  if (child == 0) {
    close(pipe_fds[1]);
    char byte = 0;
    if (fd < 0 || read(pipe_fds[0], &byte, 1) != 1) _exit(3);
    void* buffer = nullptr;
    if (posix_memalign(&buffer, 4096, 4096) != 0) _exit(4);
    std::memset(buffer, 1, 4096);
    for (int k = 0; k < count; ++k) {
      if (pwrite(fd, buffer, 4096, off_t{k} * 8192) != 4096) _exit(5);
    }
    _exit(0);
  }
  close(pipe_fds[0]);
  close(fd);
  go = pipe_fds[1];
  return child;
}

void AllocateFile(const std::string& path, uint64_t bytes) {
  const int fd = open(path.c_str(), O_CREAT | O_RDWR, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(posix_fallocate(fd, 0, static_cast<off_t>(bytes)), 0);
  ASSERT_EQ(fsync(fd), 0);
  close(fd);
}

TEST(Capture, PidKeepsThatProcessesIoAndEndsWhenItExits) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 128 << 20);
  ASSERT_TRUE(loop.ok());
  ASSERT_EQ(RunTool({"mkfs.ext4", "-q", "-F", loop.device()}), 0);
  const std::string mount_point = dir.File("mnt");
  std::filesystem::create_directory(mount_point);
  DeviceMount mount(loop.device(), mount_point);
  ASSERT_TRUE(mount.ok());
  const std::string mine = mount_point + "/mine",
                    other = mount_point + "/other";
  AllocateFile(mine, 1 << 20);
  AllocateFile(other, 1 << 20);
  int go = -1;
  const pid_t writer = StartFileWriter(mine, 32, go);
  ASSERT_GT(writer, 0);
  const std::string db = dir.File("t.db");
  auto capture = StartCapture(
      {"--pid", std::to_string(writer), "--db", db, "--time", "60s"}, dir);
  if (!capture) {
    close(go);
    waitpid(writer, nullptr, 0);
    GTEST_SKIP() << "this machine does not let flashmark trace: "
                 << ReadFile(dir.File("capture.err"));
  }
  // This process writes its own file meanwhile: not the writer's IO.
  const int fd = open(other.c_str(), O_WRONLY | O_DIRECT);
  ASSERT_GE(fd, 0);
  void* buffer = AlignedBuffer(4096);
  for (int k = 0; k < 16; ++k) {
    ASSERT_EQ(pwrite(fd, buffer, 4096, off_t{k} * 4096), 4096);
  }
  ASSERT_EQ(write(go, "g", 1), 1);
  close(go);
  int status = 0;
  ASSERT_EQ(waitpid(writer, &status, 0), writer);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  for (int k = 16; k < 32; ++k) {
    ASSERT_EQ(pwrite(fd, buffer, 4096, off_t{k} * 4096), 4096);
  }
  close(fd);
  free(buffer);
  // It ends on its own when the writer is gone (long before --time).
  const int exit_code = WaitFlashmark(capture->pid);
  const std::string out = ReadFile(capture->out_path);
  ASSERT_EQ(exit_code, 0) << ReadFile(capture->err_path);
  EXPECT_NE(out.find("exited after"), std::string::npos) << out;
  const BlockIoTrace trace = StoredTrace(out, db);
  EXPECT_TRUE(trace.origin.starts_with("pid " + std::to_string(writer) + " ("))
      << trace.origin;
  // Exactly its 32 writes, where its file lies on the disk.
  const int mine_fd = open(mine.c_str(), O_RDONLY);
  const std::vector<IoFile> files = {{mine_fd, 1 << 20, mine}};
  auto sectors = TargetSectors::Map(files);
  ASSERT_TRUE(sectors.ok());
  std::vector<uint64_t> expected;
  for (int k = 0; k < 32; ++k) {
    auto place = sectors->Find(0, static_cast<uint64_t>(k) * 8192, 4096);
    ASSERT_TRUE(place.has_value());
    expected.push_back(place->sector * 512);
  }
  close(mine_fd);
  std::vector<uint64_t> offsets;
  for (const TracedIo& io : trace.ios) {
    EXPECT_EQ(io.pid, static_cast<uint32_t>(writer));
    if (io.op == TraceOp::kWrite && io.length == 4096) {
      offsets.push_back(io.offset);
      ExpectTimesInOrder(io);
    }
  }
  EXPECT_EQ(offsets, expected);
}

TEST(Capture, BadInputIsRefusedAndNothingStored) {
  TempDir dir;
  const std::string db = dir.File("t.db");
  const std::string plain = dir.File("plain");
  WriteText(plain, "not a device");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  std::vector<Case> cases = {
      {{"/nonexistent/dev/sdz"}, "No such file"},
      {{plain}, "is not a block device"},
      {{"--pid", "999999999"}, "no such process"},
      {{"--pid", "12ab"}, "is not a process id"},
      {{}, "a DEVICE or --pid"},
      {{plain, "--pid", "1"}, "not both"},
      {{plain, "--time", "soon"}, "is not a duration"},
      {{plain, "-o", "/dev/null"}, "-o"},
  };
  // A process whose files are all pipes.
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t piped = fork();
  if (piped == 0) {
    for (int fd = 0; fd < 1024; ++fd) {
      if (fd != pipe_fds[0]) close(fd);
    }
    char byte = 0;
    [[maybe_unused]] const auto got = read(pipe_fds[0], &byte, 1);
    _exit(0);
  }
  close(pipe_fds[0]);
  if (IsRoot()) {  // another user's /proc/PID/fd is not readable
    cases.push_back({{"--pid", std::to_string(piped)},
                     "has no open file on a block device"});
  }
  for (const Case& c : cases) {
    std::vector<std::string> args = {"capture"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.insert(args.end(), {"--db", db});
    const Invocation run = RunFlashmark(args);
    EXPECT_EQ(run.exit_code, 2) << c.message << ": " << run.err;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
    EXPECT_NE(run.err.find('('), std::string::npos) << "a hint: " << run.err;
    EXPECT_FALSE(std::filesystem::exists(db)) << c.message;
  }
  close(pipe_fds[1]);
  waitpid(piped, nullptr, 0);
}

TEST(Capture, WithoutPermissionToTraceItIsRefused) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 16 << 20);
  ASSERT_TRUE(loop.ok());
  std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
  const std::string db = dir.File("t.db");
  const Invocation run =
      RunProgram({"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                  "--inh-caps=-all", FLASHMARK_BINARY, "capture", loop.device(),
                  "--db", db});
  if (run.err.find("setpriv") != std::string::npos) {
    GTEST_SKIP() << "setpriv cannot run flashmark as nobody: " << run.err;
  }
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("root (or CAP_SYS_ADMIN)"), std::string::npos)
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(db));
}

}  // namespace
}  // namespace flashmark::testing
