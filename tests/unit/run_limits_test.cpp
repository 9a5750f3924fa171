// CheckRunFitsHost against made-up machines: each limit refuses with its
// figures and a hint, and a run within every limit passes.
#include "campaign/run_limits.h"

#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace flashmark {
namespace {

using test_support::kGiB;
using test_support::kMiB;

JobSpec Spec(int threads, int iodepth, uint32_t block_bytes) {
  JobSpec spec;
  spec.engine = "io_uring";
  spec.threads = threads;
  spec.iodepth = iodepth;
  spec.block_sizes = {{block_bytes, 100}};
  spec.huge_page_buffers = true;
  return spec;
}

HostLimits Machine() {
  HostLimits host;
  host.memory_total_bytes = 24 * kGiB;
  host.memory_available_bytes = 20 * kGiB;
  host.threads_left = {{100000, "the kernel's limit (kernel.threads-max)"}};
  host.aio_events_left = 65536;
  return host;
}

std::string Refusal(const JobSpec& spec, const HostLimits& host) {
  const Status status = CheckRunFitsHost(spec, host);
  EXPECT_FALSE(status.ok());
  if (status.ok()) return "";
  EXPECT_EQ(status.error().exit_code, 2);
  return status.error().message + " | " + status.error().hint;
}

TEST(CheckRunFitsHost, ARunWithinEveryLimitPasses) {
  EXPECT_TRUE(CheckRunFitsHost(Spec(64, 32, 16384), Machine()).ok());
}

TEST(CheckRunFitsHost, BuffersBeyondHalfTheAvailableMemory) {
  // 8 x 64 x 64 MiB = 32 GiB of 20 GiB available.
  EXPECT_EQ(Refusal(Spec(8, 64, 64 << 20), Machine()),
            "the IO buffers of 8 threads (4 GiB each: 64 x 64 MiB, on huge "
            "pages) take 32 GiB, more than half of the memory available (20 "
            "GiB of 24 GiB) | use a smaller --bs, --iodepth or --threads, or "
            "--shared-buffer");
  // 8 x 64 x 16 MiB = 8 GiB: within half.
  EXPECT_TRUE(CheckRunFitsHost(Spec(8, 64, 16 << 20), Machine()).ok());
}

TEST(CheckRunFitsHost, ASyncEngineHasOneBufferWhateverTheDepth) {
  JobSpec spec = Spec(8, 64, 64 << 20);
  spec.engine = "psync";
  EXPECT_TRUE(CheckRunFitsHost(spec, Machine()).ok()) << "8 x 64 MiB";
}

TEST(CheckRunFitsHost, FixedBuffersBeyondTheMemlockLimit) {
  JobSpec spec = Spec(4, 32, 1 << 20);
  spec.tuning.fixed_buffers = true;
  HostLimits host = Machine();
  host.memlock_bytes = 64 * kMiB;
  const std::string refusal = Refusal(spec, host);
  EXPECT_NE(refusal.find("--fixedbufs: the IO buffers of 4 threads"),
            std::string::npos)
      << refusal;
  EXPECT_NE(refusal.find("take 128 MiB, more than the 64 MiB this process "
                         "may lock (ulimit -l)"),
            std::string::npos)
      << refusal;
  host.can_lock_memory = true;
  EXPECT_TRUE(CheckRunFitsHost(spec, host).ok()) << "CAP_IPC_LOCK";
}

TEST(CheckRunFitsHost, ThreadsBeyondEachLimit) {
  HostLimits host = Machine();
  host.threads_left.push_back({500, "the pids cgroup's limit (pids.max)"});
  EXPECT_EQ(Refusal(Spec(4096, 1, 4096), host),
            "--threads 4096 is more than the pids cgroup's limit (pids.max) "
            "allows beside the threads running now: 492 more at most | use "
            "--threads 492 or fewer, with --iodepth for more IO in flight");
  EXPECT_TRUE(CheckRunFitsHost(Spec(492, 1, 4096), host).ok());
}

TEST(CheckRunFitsHost, LibaioContextsBeyondTheSystemsEvents) {
  JobSpec spec = Spec(256, 256, 4096);
  spec.engine = "libaio";
  const std::string refusal = Refusal(spec, Machine());
  EXPECT_NE(refusal.find("libaio: --threads 256 x --iodepth 256 need 65792 "
                         "AIO events, more than the 65536 the system has "
                         "left (fs.aio-max-nr)"),
            std::string::npos)
      << refusal;
  spec.threads = 255;
  EXPECT_TRUE(CheckRunFitsHost(spec, Machine()).ok());
  spec.engine = "io_uring";
  spec.threads = 256;
  EXPECT_TRUE(CheckRunFitsHost(spec, Machine()).ok()) << "no AIO context";
}

TEST(ReadHostLimits, ThisMachineHasMemoryAndAThreadLimit) {
  const HostLimits host = ReadHostLimits();
  EXPECT_GT(host.memory_total_bytes, 0u);
  EXPECT_GT(host.memory_available_bytes, 0u);
  EXPECT_LE(host.memory_available_bytes, host.memory_total_bytes);
  EXPECT_FALSE(host.threads_left.empty()) << "kernel.threads-max at least";
}

}  // namespace
}  // namespace flashmark
