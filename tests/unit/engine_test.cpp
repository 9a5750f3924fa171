// Every engine in the registry against a real file in a temporary directory
// (written, synced and read back through the engine), in each of its modes
// (io_uring with registered buffers, with a kernel submission thread), plus
// the null engine's queueing rules and the registry table itself.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine_registry.h"
#include "engine/io_engine.h"
#include "engine/libaio_engine.h"

namespace flashmark {
namespace {

constexpr uint32_t kBlock = 4096;
constexpr uint32_t kBlocks = 16;
constexpr uint64_t kFileSize = uint64_t{kBlock} * kBlocks;
// Every unit's buffer lies in one pool, registered as buffer 0 in the
// --fixedbufs mode: written data, read-back data, two spare blocks.
constexpr uint64_t kPoolBytes = 2 * kFileSize + 2 * kBlock;

EngineSetup SetupFor(std::span<const IoFile> files, int depth,
                     std::span<const IoBuffer> buffers = {},
                     const EngineTuning& tuning = {}) {
  EngineSetup setup;
  setup.files = files;
  setup.depth = depth;
  setup.buffers = buffers;
  setup.tuning = tuning;
  return setup;
}

// An engine and the tuning it runs with in one row of the matrix.
struct EngineMode {
  std::string name;  // the test's name: "io_uring_fixedbufs"
  std::string engine;
  EngineTuning tuning;
};

class TempDir {
 public:
  TempDir() {
    char name[] = "/tmp/flashmark-engine-test-XXXXXX";
    if (mkdtemp(name) != nullptr) path_ = name;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<char[], FreeDeleter>;

AlignedBuffer MakeBuffer(size_t bytes) {
  return AlignedBuffer(static_cast<char*>(std::aligned_alloc(kBlock, bytes)));
}

// Distinct, position-dependent bytes for block `block`.
void FillPattern(char* data, uint32_t block) {
  for (uint32_t i = 0; i < kBlock; ++i) {
    data[i] = static_cast<char>((block * 131 + i * 7 + (i >> 8)) & 0xff);
  }
}

// Creates `path` with kFileSize bytes; returns an fd opened with `flags`.
int CreateFile(const std::string& path, int flags) {
  const int fd = open(path.c_str(), O_CREAT | flags, 0600);
  if (fd >= 0 && ftruncate(fd, kFileSize) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Drives `units` through `engine` the way a runner does: queue until busy
// or done, commit, reap at least one. Checks each unit completes once.
// With `commit_in_reap`, a full queue is not committed: the Reap() that
// waits must submit it (as the worker leaves it to).
void RunUnits(IoEngine& engine, std::vector<IoUnit>& units, int depth,
              bool commit_in_reap = false) {
  std::vector<int> completions(units.size(), 0);
  std::vector<IoUnit*> reaped(depth);
  size_t next = 0;
  size_t done = 0;
  int outstanding = 0;
  while (done < units.size()) {
    while (next < units.size()) {
      units[next].slot = static_cast<uint32_t>(next);
      const QueueResult queued = engine.Queue(&units[next]);
      if (queued == QueueResult::kBusy) break;
      if (queued == QueueResult::kCompleted) {
        ++completions[next];
        ++done;
      } else {
        ++outstanding;
      }
      ++next;
    }
    const bool full = next < units.size();
    if (!(commit_in_reap && full)) {
      Result<int> committed = engine.Commit();
      ASSERT_TRUE(committed.ok()) << committed.error().message;
    }
    if (outstanding == 0) continue;
    Result<int> got = engine.Reap(1, depth, reaped.data());
    ASSERT_TRUE(got.ok()) << got.error().message;
    ASSERT_GE(*got, 1);
    ASSERT_LE(*got, outstanding);
    for (int i = 0; i < *got; ++i) ++completions[reaped[i]->slot];
    outstanding -= *got;
    done += static_cast<size_t>(*got);
  }
  for (size_t i = 0; i < units.size(); ++i) {
    EXPECT_EQ(completions[i], 1) << "unit " << i;
  }
}

class EngineTest : public ::testing::TestWithParam<EngineMode> {
 protected:
  void SetUp() override {
    info_ = FindEngine(GetParam().engine);
    ASSERT_NE(info_, nullptr);
    ASSERT_FALSE(dir_.path().empty()) << "mkdtemp: " << std::strerror(errno);
    ASSERT_TRUE(pool_);
    engine_ = info_->create();
    depth_ = (info_->capabilities & kCapAsync) != 0 ? 8 : 1;
  }

  // A free block of the pool, for tests that need one or two.
  char* Spare(int k) { return pool_.get() + 2 * kFileSize + k * kBlock; }

  // Prep, skipping when the kernel or a container forbids the engine.
  bool PrepOrSkip(const IoFile& file) {
    const IoBuffer pool{pool_.get(), kPoolBytes};
    Status status = engine_->Prep(
        SetupFor({&file, 1}, depth_, {&pool, 1}, GetParam().tuning));
    if (!status.ok() &&
        status.error().hint.find("unavailable") != std::string::npos) {
      skipped_ = status.error().message;
      return false;
    }
    EXPECT_TRUE(status.ok()) << status.error().message;
    return status.ok();
  }

  // Writes every block with its pattern, syncs, reads back and compares.
  void WriteSyncReadBack(const IoFile& file, bool expect_einval_ok,
                         bool commit_in_reap = false) {
    char* data = pool_.get();
    char* back = pool_.get() + kFileSize;
    std::memset(back, 0, kFileSize);
    std::vector<IoUnit> writes(kBlocks);
    std::vector<IoUnit> reads(kBlocks);
    for (uint32_t i = 0; i < kBlocks; ++i) {
      // Scattered order, so offsets are not simply sequential.
      const uint32_t block = (i * 5) % kBlocks;
      FillPattern(data + block * kBlock, block);
      writes[i] = IoUnit{.op = IoOp::kWrite,
                         .file = 0,
                         .offset = uint64_t{block} * kBlock,
                         .length = kBlock,
                         .buffer = data + block * kBlock};
      reads[i] = writes[i];
      reads[i].op = IoOp::kRead;
      reads[i].buffer = back + block * kBlock;
    }
    RunUnits(*engine_, writes, depth_, commit_in_reap);
    if (expect_einval_ok && writes[0].result == -EINVAL) {
      skipped_ = "the filesystem refuses O_DIRECT IO (EINVAL)";
      return;
    }
    for (const IoUnit& unit : writes) {
      ASSERT_EQ(unit.result, kBlock) << "write at " << unit.offset;
    }
    Status synced = engine_->Sync(0, FsyncMode::kFdatasync);
    ASSERT_TRUE(synced.ok()) << synced.error().message;
    synced = engine_->Sync(0, FsyncMode::kFsync);
    ASSERT_TRUE(synced.ok()) << synced.error().message;
    RunUnits(*engine_, reads, depth_, commit_in_reap);
    for (const IoUnit& unit : reads) {
      ASSERT_EQ(unit.result, kBlock) << "read at " << unit.offset;
    }
    EXPECT_EQ(std::memcmp(data, back, kFileSize), 0);

    // Independent check through a plain descriptor, outside the engine.
    const int plain = open(file.path.c_str(), O_RDONLY);
    ASSERT_GE(plain, 0) << file.path;
    std::vector<char> check(kFileSize);
    const ssize_t checked = pread(plain, check.data(), kFileSize, 0);
    close(plain);
    ASSERT_EQ(checked, static_cast<ssize_t>(kFileSize));
    EXPECT_EQ(std::memcmp(data, check.data(), kFileSize), 0);
  }

  const EngineInfo* info_ = nullptr;
  AlignedBuffer pool_ = MakeBuffer(kPoolBytes);
  std::unique_ptr<IoEngine> engine_;
  int depth_ = 1;
  TempDir dir_;
  std::string skipped_;
};

void PrintTo(const EngineMode& mode, std::ostream* out) { *out << mode.name; }

// Every disk engine as it comes, and io_uring in each of its modes.
std::vector<EngineMode> DiskEngineModes() {
  std::vector<EngineMode> modes;
  for (const EngineInfo& info : Engines()) {
    // (io_uring_cmd takes NVMe generic devices only: io_uring_modes_test)
    if ((info.capabilities & (kCapDiskless | kCapNvmeCommands)) != 0) continue;
    modes.push_back({std::string(info.name), std::string(info.name), {}});
  }
  const auto tuned = [](bool fixed_buffers, bool sqpoll) {
    EngineTuning tuning;
    tuning.fixed_buffers = fixed_buffers;
    tuning.sqpoll = sqpoll;
    tuning.sqpoll_cpu = sqpoll && fixed_buffers ? 0 : -1;
    return tuning;
  };
  modes.push_back({"io_uring_fixedbufs", "io_uring", tuned(true, false)});
  modes.push_back({"io_uring_sqpoll", "io_uring", tuned(false, true)});
  modes.push_back(
      {"io_uring_sqpoll_cpu0_fixedbufs", "io_uring", tuned(true, true)});
  return modes;
}

TEST_P(EngineTest, CapabilitiesMatchTheRegistry) {
  EXPECT_EQ(engine_->capabilities(), info_->capabilities);
}

TEST_P(EngineTest, WritesSyncsAndReadsBack) {
  const std::string path = dir_.path() + "/data";
  IoFile file{CreateFile(path, O_RDWR), kFileSize, path};
  ASSERT_GE(file.fd, 0) << path << ": " << std::strerror(errno);
  if (PrepOrSkip(file)) WriteSyncReadBack(file, false);
  engine_.reset();
  close(file.fd);
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
}

// A worker whose queue is full leaves the Commit() to the Reap() that
// waits (io_uring submits and waits in one system call): what was queued
// is written and read back all the same.
TEST_P(EngineTest, ReapSubmitsWhatIsQueuedBeforeItWaits) {
  const std::string path = dir_.path() + "/in-reap";
  IoFile file{CreateFile(path, O_RDWR), kFileSize, path};
  ASSERT_GE(file.fd, 0) << path << ": " << std::strerror(errno);
  if (PrepOrSkip(file)) WriteSyncReadBack(file, false, true);
  engine_.reset();
  close(file.fd);
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
}

// The runner prepares engines on the main thread and drives them from a
// worker thread (io_uring's SINGLE_ISSUER ring must allow that).
TEST_P(EngineTest, PrepOnOneThreadIoOnAnother) {
  const std::string path = dir_.path() + "/threads";
  IoFile file{CreateFile(path, O_RDWR), kFileSize, path};
  ASSERT_GE(file.fd, 0) << path << ": " << std::strerror(errno);
  bool prepared = false;
  std::thread([&] { prepared = PrepOrSkip(file); }).join();
  if (prepared) WriteSyncReadBack(file, false);
  engine_.reset();
  close(file.fd);
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
}

TEST_P(EngineTest, DirectIoWritesAndReadsBack) {
  if ((info_->capabilities & kCapDirectIo) == 0) {
    GTEST_SKIP() << info_->name << " does not support O_DIRECT";
  }
  const std::string path = dir_.path() + "/direct";
  IoFile file{CreateFile(path, O_RDWR | O_DIRECT), kFileSize, path};
  if (file.fd < 0 && errno == EINVAL) {
    GTEST_SKIP() << dir_.path() << ": the filesystem refuses O_DIRECT";
  }
  ASSERT_GE(file.fd, 0) << path << ": " << std::strerror(errno);
  if (PrepOrSkip(file)) WriteSyncReadBack(file, true);
  engine_.reset();
  close(file.fd);
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
}

TEST_P(EngineTest, ReadPastEndOfFileIsShortOrEmpty) {
  const std::string path = dir_.path() + "/eof";
  IoFile file{CreateFile(path, O_RDWR), kFileSize, path};
  ASSERT_GE(file.fd, 0);
  if (PrepOrSkip(file)) {
    std::vector<IoUnit> units(2);
    units[0] = IoUnit{.op = IoOp::kRead,
                      .offset = kFileSize,
                      .length = kBlock,
                      .buffer = Spare(0)};
    units[1] = IoUnit{.op = IoOp::kRead,
                      .offset = kFileSize - 100,
                      .length = kBlock,
                      .buffer = Spare(1)};
    RunUnits(*engine_, units, depth_);
    EXPECT_EQ(units[0].result, 0);
    EXPECT_EQ(units[1].result, 100);
  }
  engine_.reset();
  close(file.fd);
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
}

TEST_P(EngineTest, WriteToReadOnlyDescriptorFails) {
  const std::string path = dir_.path() + "/ro";
  const int rw = CreateFile(path, O_RDWR);
  ASSERT_GE(rw, 0);
  close(rw);
  IoFile file{open(path.c_str(), O_RDONLY), kFileSize, path};
  ASSERT_GE(file.fd, 0);
  if (PrepOrSkip(file)) {
    FillPattern(Spare(0), 0);
    std::vector<IoUnit> units(1);
    units[0] = IoUnit{
        .op = IoOp::kWrite, .offset = 0, .length = kBlock, .buffer = Spare(0)};
    RunUnits(*engine_, units, depth_);
    EXPECT_EQ(units[0].result, -EBADF);
  }
  engine_.reset();
  close(file.fd);
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
}

TEST_P(EngineTest, BadDescriptorFailsTheUnitNotTheProcess) {
  const std::string path = dir_.path() + "/closed";
  const int fd = CreateFile(path, O_RDWR);
  ASSERT_GE(fd, 0);
  // A high number, so descriptors the engine opens cannot reuse it.
  const int closed = fcntl(fd, F_DUPFD, 900);
  ASSERT_GE(closed, 900);
  close(closed);
  close(fd);
  IoFile file{closed, kFileSize, path};
  if ((info_->capabilities & kCapMemoryMapped) != 0) {
    // Nothing to map: Prep() reports it, naming the file.
    Status status = engine_->Prep(SetupFor({&file, 1}, depth_));
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find(path), std::string::npos)
        << status.error().message;
    return;
  }
  if (!PrepOrSkip(file)) GTEST_SKIP() << skipped_;
  std::vector<IoUnit> units(2);
  units[0] = IoUnit{
      .op = IoOp::kRead, .offset = 0, .length = kBlock, .buffer = Spare(0)};
  units[1] = units[0];
  units[1].op = IoOp::kWrite;
  RunUnits(*engine_, units, depth_);
  EXPECT_EQ(units[0].result, -EBADF);
  EXPECT_EQ(units[1].result, -EBADF);
  Status synced = engine_->Sync(0, FsyncMode::kFsync);
  ASSERT_FALSE(synced.ok());
  EXPECT_NE(synced.error().message.find(path), std::string::npos);
}

TEST_P(EngineTest, SyncOfUnknownFileIsAnError) {
  const std::string path = dir_.path() + "/one";
  IoFile file{CreateFile(path, O_RDWR), kFileSize, path};
  ASSERT_GE(file.fd, 0);
  if (PrepOrSkip(file)) {
    Status status = engine_->Sync(1, FsyncMode::kFsync);
    EXPECT_FALSE(status.ok());
  }
  engine_.reset();
  close(file.fd);
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
}

INSTANTIATE_TEST_SUITE_P(AllDiskEngines, EngineTest,
                         ::testing::ValuesIn(DiskEngineModes()),
                         [](const auto& param_info) {
                           return param_info.param.name;
                         });

TEST(MmapEngineTest, EmptyFileIsNotMappedAndReadsNothing) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string path = dir.path() + "/empty";
  const int fd = open(path.c_str(), O_CREAT | O_RDWR, 0600);
  ASSERT_GE(fd, 0);
  {
    std::unique_ptr<IoEngine> engine = FindEngine("mmap")->create();
    IoFile file{fd, 0, path};
    Status status = engine->Prep(SetupFor({&file, 1}, 1));
    ASSERT_TRUE(status.ok()) << status.error().message;
    char byte = 0;
    IoUnit unit{.op = IoOp::kRead, .offset = 0, .length = 1, .buffer = &byte};
    EXPECT_EQ(engine->Queue(&unit), QueueResult::kCompleted);
    EXPECT_EQ(unit.result, 0);
    EXPECT_TRUE(engine->Sync(0, FsyncMode::kFsync).ok());
  }
  close(fd);
}

// --- libaio ----------------------------------------------------------------

// Reap() reads posted completions from the AIO ring itself: on a buffered
// file io_submit() completes each read before it returns, so a reap that
// does not wait finds them all, through many turns of the ring, each once.
TEST(LibaioEngineTest, PostedCompletionsAreReadFromTheRingEachOnce) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string path = dir.path() + "/ring";
  IoFile file{CreateFile(path, O_RDWR), kFileSize, path};
  ASSERT_GE(file.fd, 0);
  constexpr int kDepth = 4;
  {
    LibaioEngine engine;
    Status prepared = engine.Prep(SetupFor({&file, 1}, kDepth));
    if (!prepared.ok() &&
        prepared.error().hint.find("unavailable") != std::string::npos) {
      close(file.fd);
      GTEST_SKIP() << prepared.error().message;
    }
    ASSERT_TRUE(prepared.ok()) << prepared.error().message;
    EXPECT_TRUE(engine.reads_ring());
    AlignedBuffer data = MakeBuffer(kDepth * kBlock);
    std::vector<IoUnit> units(kDepth);
    std::vector<IoUnit*> reaped(kDepth);
    std::vector<int> completions(kDepth, 0);
    for (int round = 0; round < 1000; ++round) {
      for (int i = 0; i < kDepth; ++i) {
        units[i] = IoUnit{.op = IoOp::kRead,
                          .offset = uint64_t{(round + i) % kBlocks} * kBlock,
                          .length = kBlock,
                          .buffer = data.get() + i * kBlock,
                          .slot = static_cast<uint32_t>(i)};
        ASSERT_EQ(engine.Queue(&units[i]), QueueResult::kQueued);
      }
      ASSERT_TRUE(engine.Commit().ok());
      int got = 0;
      while (got < kDepth) {
        Result<int> now = engine.Reap(0, kDepth, reaped.data() + got);
        ASSERT_TRUE(now.ok()) << now.error().message;
        got += *now;
      }
      for (IoUnit* unit : reaped) {
        ++completions[unit->slot];
        ASSERT_EQ(unit->result, kBlock) << "round " << round;
      }
    }
    for (int i = 0; i < kDepth; ++i) EXPECT_EQ(completions[i], 1000) << i;
  }
  close(file.fd);
}

// --- null engine -----------------------------------------------------------

std::unique_ptr<IoEngine> PreppedNull(int depth) {
  std::unique_ptr<IoEngine> engine = FindEngine("null")->create();
  Status status = engine->Prep(SetupFor({}, depth));
  EXPECT_TRUE(status.ok());
  return engine;
}

TEST(NullEngineTest, DepthOneCompletesInQueue) {
  std::unique_ptr<IoEngine> engine = PreppedNull(1);
  for (uint32_t i = 0; i < 100; ++i) {
    IoUnit unit{.offset = i * 512ull, .length = 512 + i, .result = -1};
    ASSERT_EQ(engine->Queue(&unit), QueueResult::kCompleted);
    EXPECT_EQ(unit.result, 512 + i);
  }
  EXPECT_EQ(*engine->Commit(), 0);
  IoUnit* out[4];
  EXPECT_EQ(*engine->Reap(1, 4, out), 0);
  EXPECT_TRUE(engine->Sync(0, FsyncMode::kFsync).ok());
}

TEST(NullEngineTest, DepthThirtyTwoHoldsUnitsUntilReapedAndIsBusyWhenFull) {
  constexpr int kDepth = 32;
  std::unique_ptr<IoEngine> engine = PreppedNull(kDepth);
  EXPECT_NE(engine->capabilities() & kCapDiskless, 0u);
  std::vector<IoUnit> units(kDepth + 1);
  for (int i = 0; i <= kDepth; ++i) {
    units[i].length = 4096 + i;
    units[i].result = -1;
    units[i].slot = i;
  }
  for (int i = 0; i < kDepth; ++i) {
    ASSERT_EQ(engine->Queue(&units[i]), QueueResult::kQueued) << i;
  }
  EXPECT_EQ(engine->Queue(&units[kDepth]), QueueResult::kBusy);
  EXPECT_EQ(units[kDepth].result, -1) << "a busy unit must not be touched";
  EXPECT_EQ(*engine->Commit(), kDepth);
  EXPECT_EQ(*engine->Commit(), 0);
  std::vector<IoUnit*> out(64);
  ASSERT_EQ(*engine->Reap(1, 64, out.data()), kDepth);
  std::set<uint32_t> seen;
  for (int i = 0; i < kDepth; ++i) {
    EXPECT_TRUE(seen.insert(out[i]->slot).second);
    EXPECT_EQ(out[i]->result, out[i]->length);
  }
  EXPECT_EQ(*engine->Reap(0, 64, out.data()), 0);
  EXPECT_EQ(engine->Queue(&units[kDepth]), QueueResult::kQueued);
}

TEST(NullEngineTest, EveryUnitCompletesExactlyOnceThroughManyWraps) {
  constexpr int kDepth = 32;
  std::unique_ptr<IoEngine> engine = PreppedNull(kDepth);
  std::vector<IoUnit> units(10'000);
  for (size_t i = 0; i < units.size(); ++i) {
    units[i].length = static_cast<uint32_t>(i % 7 + 1) * 512;
  }
  RunUnits(*engine, units, kDepth);
  for (const IoUnit& unit : units) EXPECT_EQ(unit.result, unit.length);

  // Partial reaps (fewer than queued) must keep FIFO order and lose nothing.
  std::vector<int> completions(100, 0);
  std::vector<IoUnit> more(100);
  IoUnit* out[5];
  size_t next = 0;
  size_t done = 0;
  while (done < more.size()) {
    while (next < more.size()) {
      more[next].slot = static_cast<uint32_t>(next);
      more[next].length = 4096;
      if (engine->Queue(&more[next]) == QueueResult::kBusy) break;
      ++next;
    }
    ASSERT_TRUE(engine->Commit().ok());
    const int got = *engine->Reap(1, 5, out);
    ASSERT_GT(got, 0);
    for (int i = 0; i < got; ++i) {
      EXPECT_EQ(out[i]->slot, done + i) << "FIFO order";
      ++completions[out[i]->slot];
    }
    done += static_cast<size_t>(got);
  }
  for (int count : completions) EXPECT_EQ(count, 1);
}

TEST(NullEngineTest, RejectsNonPositiveDepth) {
  std::unique_ptr<IoEngine> engine = FindEngine("null")->create();
  EXPECT_FALSE(engine->Prep(SetupFor({}, 0)).ok());
}

// --- registry --------------------------------------------------------------

TEST(EngineRegistryTest, NamesAreUniqueAndListedInOrder) {
  std::set<std::string_view> names;
  for (const EngineInfo& info : Engines()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_FALSE(info.summary.empty()) << info.name;
    ASSERT_NE(info.create, nullptr) << info.name;
    EXPECT_EQ(info.create()->capabilities(), info.capabilities) << info.name;
    EXPECT_EQ(FindEngine(info.name), &info);
  }
  EXPECT_EQ(EngineNames(),
            "sync, psync, libaio, io_uring, io_uring_cmd, mmap, null");
}

TEST(EngineRegistryTest, UnknownNameIsNull) {
  EXPECT_EQ(FindEngine("nope"), nullptr);
  EXPECT_EQ(FindEngine(""), nullptr);
  EXPECT_EQ(FindEngine("IO_URING"), nullptr);
}

TEST(EngineRegistryTest, CapabilitiesAreConsistent) {
  for (const EngineInfo& info : Engines()) {
    if ((info.capabilities & kCapMemoryMapped) != 0) {
      EXPECT_EQ(info.capabilities & kCapDirectIo, 0u) << info.name;
    }
    if ((info.capabilities & kCapDiskless) != 0) {
      EXPECT_EQ(info.capabilities & kCapDirectIo, 0u) << info.name;
    }
  }
}

}  // namespace
}  // namespace flashmark
