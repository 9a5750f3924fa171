// The io_uring engine's modes beyond the engine matrix (engine_test.cpp
// runs every mode through writes, syncs and reads): that each mode really
// is on (a registered buffer is the one used, the ring's flags), what the
// environment records, the errors of --hipri where polling cannot work, and
// NVMe passthrough (io_uring_cmd): its commands, and its refusal of
// anything but an NVMe generic character device (none exists here).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "engine/engine_registry.h"
#include "engine/io_uring_engine.h"
#include "engine/nvme_generic.h"
#include "engine/polled_io_check.h"

namespace flashmark {
namespace {

constexpr uint32_t kModeBlock = 4096;

class IoUringModes : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/flashmark-uring.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    path_ = dir_ + "/data";
    fd_ = open(path_.c_str(), O_CREAT | O_RDWR, 0600);
    ASSERT_GE(fd_, 0);
    ASSERT_EQ(ftruncate(fd_, 16 * kModeBlock), 0);
    registered_ =
        static_cast<char*>(std::aligned_alloc(kModeBlock, 4 * kModeBlock));
    elsewhere_ = static_cast<char*>(std::aligned_alloc(kModeBlock, kModeBlock));
    ASSERT_TRUE(registered_ && elsewhere_);
  }
  void TearDown() override {
    engine_.reset();
    std::free(registered_);
    std::free(elsewhere_);
    if (fd_ >= 0) close(fd_);
    std::remove(path_.c_str());
    rmdir(dir_.c_str());
  }

  // Prepares a fresh engine on the file with `tuning`; false (with the
  // reason in skipped_) when io_uring is forbidden here.
  // `pool`: the units' buffers (none: anywhere); registered_ by default.
  Status Prep(const EngineTuning& tuning,
              std::optional<IoBuffer> pool = std::nullopt) {
    engine_ = std::make_unique<IoUringEngine>();
    file_ = IoFile{fd_, 16 * kModeBlock, path_};
    pool_ = pool.value_or(IoBuffer{registered_, 4 * kModeBlock});
    EngineSetup setup;
    setup.files = {&file_, 1};
    setup.depth = 4;
    if (pool_.base != nullptr) setup.buffers = {&pool_, 1};
    setup.tuning = tuning;
    return engine_->Prep(setup);
  }

  // Runs one unit to its completion.
  int64_t RunOne(IoUnit unit) {
    EXPECT_EQ(engine_->Queue(&unit), QueueResult::kQueued);
    EXPECT_TRUE(engine_->Commit().ok());
    IoUnit* out[1];
    Result<int> got = engine_->Reap(1, 1, out);
    EXPECT_TRUE(got.ok());
    EXPECT_EQ(*got, 1);
    return *got == 1 ? out[0]->result : -1;
  }

  std::string dir_, path_;
  int fd_ = -1;
  char* registered_ = nullptr;
  char* elsewhere_ = nullptr;
  IoFile file_;
  IoBuffer pool_;
  std::unique_ptr<IoUringEngine> engine_;
};

bool KernelAtLeast(int major, int minor) {
  utsname names;
  if (uname(&names) != 0) return false;
  int have_major = 0, have_minor = 0;
  std::sscanf(names.release, "%d.%d", &have_major, &have_minor);
  return have_major > major || (have_major == major && have_minor >= minor);
}

#define PREP_OR_SKIP(...)                                               \
  do {                                                                  \
    Status prepared = Prep(__VA_ARGS__);                                \
    if (!prepared.ok() &&                                               \
        prepared.error().hint.find("unavailable") != std::string::npos) \
      GTEST_SKIP() << prepared.error().message;                         \
    ASSERT_TRUE(prepared.ok()) << prepared.error().message;             \
  } while (0)

TEST_F(IoUringModes, FixedBuffersUseTheRegisteredRegionOnly) {
  EngineTuning tuning;
  tuning.fixed_buffers = true;
  PREP_OR_SKIP(tuning);
  EXPECT_TRUE(engine_->fixed_buffers());
  std::memset(registered_, 0x5a, kModeBlock);
  IoUnit write{.op = IoOp::kWrite,
               .offset = 0,
               .length = kModeBlock,
               .buffer = registered_,
               .buffer_index = 0};
  EXPECT_EQ(RunOne(write), kModeBlock);
  // A buffer outside the registered region is refused by the kernel: the
  // engine really submits fixed-buffer IO, not plain reads.
  IoUnit stray{.op = IoOp::kRead,
               .offset = 0,
               .length = kModeBlock,
               .buffer = elsewhere_,
               .buffer_index = 0};
  EXPECT_EQ(RunOne(stray), -EFAULT);
  IoUnit read{.op = IoOp::kRead,
              .offset = 0,
              .length = kModeBlock,
              .buffer = registered_ + kModeBlock,
              .buffer_index = 0};
  EXPECT_EQ(RunOne(read), kModeBlock);
  EXPECT_EQ(std::memcmp(registered_, registered_ + kModeBlock, kModeBlock), 0);
  EXPECT_NE(engine_->SetupText().find("registered buffers"), std::string::npos)
      << engine_->SetupText();
}

// The units' buffers are registered without --fixedbufs too: a buffer
// outside them is refused by the kernel, so fixed-buffer IO is what runs.
TEST_F(IoUringModes, BuffersAreRegisteredByDefault) {
  PREP_OR_SKIP(EngineTuning{});
  EXPECT_TRUE(engine_->fixed_buffers());
  IoUnit inside{.op = IoOp::kRead,
                .offset = 0,
                .length = kModeBlock,
                .buffer = registered_ + kModeBlock,
                .buffer_index = 0};
  EXPECT_EQ(RunOne(inside), kModeBlock);
  IoUnit stray{.op = IoOp::kRead,
               .offset = 0,
               .length = kModeBlock,
               .buffer = elsewhere_};
  EXPECT_EQ(RunOne(stray), -EFAULT);
  const std::string text = engine_->SetupText();
  EXPECT_NE(text.find("registered buffers"), std::string::npos) << text;
  EXPECT_NE(text.find("registered files"), std::string::npos) << text;
}

TEST_F(IoUringModes, WithoutBuffersGivenTheUnitsBuffersAreAnywhere) {
  PREP_OR_SKIP(EngineTuning{}, IoBuffer{nullptr, 0});
  EXPECT_FALSE(engine_->fixed_buffers());
  IoUnit read{.op = IoOp::kRead,
              .offset = 0,
              .length = kModeBlock,
              .buffer = elsewhere_};
  EXPECT_EQ(RunOne(read), kModeBlock);
  const std::string text = engine_->SetupText();
  EXPECT_EQ(text.find("registered buffers"), std::string::npos) << text;
}

// Buffers the kernel will not pin for writing (read-only memory): without
// --fixedbufs the IO runs on them unregistered and the setup says why;
// with it, Prep() fails naming the option.
TEST_F(IoUringModes, ARefusedRegistrationIsNotedOrWithFixedbufsAnError) {
  void* mapped = mmap(nullptr, 4 * kModeBlock, PROT_READ,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  const IoBuffer read_only{mapped, 4 * kModeBlock};
  PREP_OR_SKIP(EngineTuning{}, read_only);
  EXPECT_FALSE(engine_->fixed_buffers());
  const std::string text = engine_->SetupText();
  EXPECT_NE(text.find("unregistered buffers (registering 1 IO buffers "
                      "failed: "),
            std::string::npos)
      << text;
  // Writing from read-only memory is allowed: the IO really runs.
  IoUnit write{.op = IoOp::kWrite,
               .offset = 0,
               .length = kModeBlock,
               .buffer = static_cast<char*>(mapped),
               .buffer_index = 0};
  EXPECT_EQ(RunOne(write), kModeBlock);
  EngineTuning required;
  required.fixed_buffers = true;
  const Status refused = Prep(required, read_only);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message.rfind("--fixedbufs: registering 1 IO "
                                          "buffers failed: ",
                                          0),
            0u)
      << refused.error().message;
  engine_.reset();
  munmap(mapped, 4 * kModeBlock);
}

TEST_F(IoUringModes, TheRingDescriptorIsRegisteredOnTheFirstSubmission) {
  PREP_OR_SKIP(EngineTuning{});
  EXPECT_FALSE(engine_->ring_fd_registered());
  IoUnit read{.op = IoOp::kRead,
              .offset = 0,
              .length = kModeBlock,
              .buffer = registered_};
  EXPECT_EQ(RunOne(read), kModeBlock);
  if (!KernelAtLeast(5, 18)) GTEST_SKIP() << "registered rings need 5.18";
  EXPECT_TRUE(engine_->ring_fd_registered());
  EXPECT_NE(engine_->SetupText().find("registered ring fd"), std::string::npos)
      << engine_->SetupText();
}

TEST_F(IoUringModes, DeferredTaskRunWhereTheKernelHasIt) {
  PREP_OR_SKIP(EngineTuning{});
  if (!KernelAtLeast(6, 1)) GTEST_SKIP() << "DEFER_TASKRUN needs 6.1";
  EXPECT_TRUE(engine_->defer_taskrun());
  const std::string text = engine_->SetupText();
  EXPECT_NE(text.find("SINGLE_ISSUER"), std::string::npos) << text;
  EXPECT_NE(text.find("DEFER_TASKRUN"), std::string::npos) << text;
}

TEST_F(IoUringModes, SqPollRingHasItsThreadOnTheCpuAsked) {
  EngineTuning tuning;
  tuning.sqpoll = true;
  tuning.sqpoll_cpu = 0;
  PREP_OR_SKIP(tuning);
  EXPECT_NE(engine_->setup_flags() & IORING_SETUP_SQPOLL, 0u);
  EXPECT_EQ(engine_->setup_flags() & IORING_SETUP_DEFER_TASKRUN, 0u);
  const std::string text = engine_->SetupText();
  EXPECT_NE(text.find("SQPOLL"), std::string::npos) << text;
  EXPECT_NE(text.find("SQ_AFF(CPU 0)"), std::string::npos) << text;
  // Many IOs through the polling thread, every one accounted for.
  for (int i = 0; i < 64; ++i) {
    IoUnit read{.op = IoOp::kRead,
                .offset = static_cast<uint64_t>(i % 16) * kModeBlock,
                .length = kModeBlock,
                .buffer = registered_};
    ASSERT_EQ(RunOne(read), kModeBlock) << i;
  }
}

TEST_F(IoUringModes, HipriRefusesAFileWithoutDirectIo) {
  EngineTuning tuning;
  tuning.hipri = true;
  Status prepared = Prep(tuning);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.error().message.find("O_DIRECT"), std::string::npos)
      << prepared.error().message;
  EXPECT_NE(prepared.error().hint.find("--direct"), std::string::npos);
}

TEST_F(IoUringModes, HipriNamesTheSysfsSettingWhenTheDeviceCannotPoll) {
  const int direct = open(path_.c_str(), O_RDWR | O_DIRECT);
  if (direct < 0) GTEST_SKIP() << dir_ << " refuses O_DIRECT";
  const IoFile file{direct, 16 * kModeBlock, path_};
  Status polls = CheckPolledIo({&file, 1});
  close(direct);
  if (polls.ok()) GTEST_SKIP() << "the device under " << dir_ << " polls";
  const std::string& message = polls.error().message;
  EXPECT_NE(message.find("--hipri"), std::string::npos) << message;
  EXPECT_NE(message.find(path_), std::string::npos) << message;
  // Either the queue's setting is named, or there is no block device.
  EXPECT_TRUE(message.find("queue/io_poll") != std::string::npos ||
              message.find("no block device") != std::string::npos)
      << message;
  EXPECT_EQ(polls.error().exit_code, kUsageExit);
}

TEST(NvmeCommands, AUnitBecomesAReadOrWriteOfWholeLbas) {
  char buffer[8192];
  IoUnit unit{
      .op = IoOp::kRead, .offset = 8192, .length = 4096, .buffer = buffer};
  nvme_uring_cmd command;
  ASSERT_TRUE(BuildNvmeIo(unit, 3, 512, command));
  EXPECT_EQ(command.opcode, 0x02);
  EXPECT_EQ(command.nsid, 3u);
  EXPECT_EQ(command.addr, reinterpret_cast<uint64_t>(buffer));
  EXPECT_EQ(command.data_len, 4096u);
  EXPECT_EQ(command.cdw10, 16u);  // starting LBA, low half
  EXPECT_EQ(command.cdw11, 0u);   // high half
  EXPECT_EQ(command.cdw12, 7u);   // LBAs, zero-based
  unit.op = IoOp::kWrite;
  unit.offset = (uint64_t{5} << 32) * 4096 + 4096;  // beyond 2^32 LBAs
  ASSERT_TRUE(BuildNvmeIo(unit, 1, 4096, command));
  EXPECT_EQ(command.opcode, 0x01);
  EXPECT_EQ(command.cdw10, 1u);
  EXPECT_EQ(command.cdw11, 5u);
  EXPECT_EQ(command.cdw12, 0u);
}

TEST(NvmeCommands, PartialLbasAreRefused) {
  char buffer[4096];
  IoUnit unit{
      .op = IoOp::kRead, .offset = 512, .length = 4096, .buffer = buffer};
  nvme_uring_cmd command;
  EXPECT_FALSE(BuildNvmeIo(unit, 1, 4096, command));  // offset mid-LBA
  unit.offset = 0;
  unit.length = 1000;
  EXPECT_FALSE(BuildNvmeIo(unit, 1, 512, command));  // length mid-LBA
  unit.length = 0;
  EXPECT_FALSE(BuildNvmeIo(unit, 1, 512, command));
  unit.length = 65537 * 512;  // more than the 16-bit LBA count
  EXPECT_FALSE(BuildNvmeIo(unit, 1, 512, command));
}

TEST_F(IoUringModes, NvmeCommandsRefuseARegularFile) {
  const EngineInfo* info = FindEngine("io_uring_cmd");
  ASSERT_NE(info, nullptr);
  EXPECT_NE(info->capabilities & kCapNvmeCommands, 0u);
  std::unique_ptr<IoEngine> engine = info->create();
  file_ = IoFile{fd_, 16 * kModeBlock, path_};
  EngineSetup setup;
  setup.files = {&file_, 1};
  setup.depth = 4;
  Status prepared = engine->Prep(setup);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.error().message.find(
                path_ + " is not an NVMe generic character device"),
            std::string::npos)
      << prepared.error().message;
  EXPECT_NE(prepared.error().hint.find("/dev/ng"), std::string::npos);
  EXPECT_EQ(prepared.error().exit_code, kUsageExit);
  // Registered buffers and polling are not offered for NVMe commands.
  setup.tuning.fixed_buffers = true;
  prepared = engine->Prep(setup);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.error().message.find("--fixedbufs"), std::string::npos);
}

TEST(NvmeCommands, OnlyNvmeGenericDevicesAreDescribed) {
  struct stat st {};
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_FALSE(DescribeNvmeGeneric(st.st_rdev).has_value());
}

}  // namespace
}  // namespace flashmark
