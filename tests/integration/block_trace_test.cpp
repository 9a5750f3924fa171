// BlockTrace on real loop devices (root, with tracefs; elsewhere skipped
// with a message): a drain hands over the traced device's events only
// (the kernel's filter drops another device's), each of this test's
// writes exactly once as queued, issued and completed, in time order
// across the CPUs it was written from.
#include "system/block_trace.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <thread>

#include "binary_runner.h"
#include "common/cycle_clock.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

// The kernel's dev_t of a block device node: major << 20 | minor.
uint32_t TraceDev(const std::string& device) {
  struct stat st {};
  if (stat(device.c_str(), &st) != 0) return 0;
  return (major(st.st_rdev) << 20) | minor(st.st_rdev);
}

void RunOn(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof(set), &set);
}

TEST(BlockTrace, DrainsTheTracedDeviceOnlyEachWriteOnceInTimeOrder) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice traced(dir.File("traced.img"), 16 << 20);
  LoopDevice other(dir.File("other.img"), 16 << 20);
  ASSERT_TRUE(traced.ok());
  ASSERT_TRUE(other.ok());
  const uint32_t dev = TraceDev(traced.device());
  const uint32_t devices[] = {dev};
  const CycleClock clock = CycleClock::Calibrate();
  auto trace = BlockTrace::Start(devices, clock, "test");
  if (!trace.ok()) {
    GTEST_SKIP() << "this machine does not let flashmark trace: "
                 << trace.error().message;
  }
  (*trace)->Drain();  // before this test's writes
  const int to_traced = open(traced.device().c_str(), O_RDWR | O_DIRECT);
  const int to_other = open(other.device().c_str(), O_RDWR | O_DIRECT);
  ASSERT_GE(to_traced, 0);
  ASSERT_GE(to_other, 0);
  void* buffer = nullptr;
  ASSERT_EQ(posix_memalign(&buffer, 4096, 4096), 0);
  // 64 writes of 4 KiB from 1 MiB on (away from what udev may read), from
  // each CPU in turn, and as many to the other device.
  constexpr int kWrites = 64;
  constexpr uint64_t kFirstSector = 2048;
  const long cpus = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  std::thread writer([&] {
    for (int k = 0; k < kWrites; ++k) {
      RunOn(static_cast<int>(k % cpus));
      const auto at = static_cast<off_t>((kFirstSector + 8 * k) << 9);
      EXPECT_EQ(pwrite(to_traced, buffer, 4096, at), 4096);
      EXPECT_EQ(pwrite(to_other, buffer, 4096, at), 4096);
    }
  });
  writer.join();

  // Per sector: the kinds seen (queue, issue, complete) and their times.
  std::map<uint64_t, std::map<BlockEvent::Kind, std::vector<uint64_t>>> seen;
  size_t events = 0;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (events < 3 * kWrites && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    uint64_t last_ticks = 0;
    for (const BlockEvent& event : (*trace)->Drain()) {
      EXPECT_EQ(event.dev, dev) << "another device's event was recorded";
      EXPECT_GE(event.ticks, last_ticks) << "a drain out of time order";
      last_ticks = event.ticks;
      if (event.sector < kFirstSector || event.rwbs[0] != 'W') continue;
      seen[event.sector][event.kind].push_back(event.ticks);
      ++events;
    }
  }
  EXPECT_EQ((*trace)->Overwritten(), 0u);
  close(to_traced);
  close(to_other);
  free(buffer);

  ASSERT_EQ(seen.size(), static_cast<size_t>(kWrites));
  for (int k = 0; k < kWrites; ++k) {
    const auto& kinds = seen[kFirstSector + 8 * k];
    using Kind = BlockEvent::Kind;
    ASSERT_EQ(kinds.size(), 3u) << "write " << k;
    for (const auto& [kind, times] : kinds) {
      EXPECT_EQ(times.size(), 1u) << "write " << k;
    }
    EXPECT_LE(kinds.at(Kind::kQueue)[0], kinds.at(Kind::kIssue)[0]) << k;
    EXPECT_LE(kinds.at(Kind::kIssue)[0], kinds.at(Kind::kComplete)[0]) << k;
  }
}

}  // namespace
}  // namespace flashmark::testing
