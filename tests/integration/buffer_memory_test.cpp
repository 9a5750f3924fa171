// --mem in real runs: the run records which pages held its IO buffers, and
// on a loop device (root only) a 1 MiB read from huge-page buffers reaches
// the device as one request, where from 4 KiB pages (--mem malloc, fio's
// default) the device's 128-segment limit splits it in two.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "runner/io_buffer_pool.h"
#include "system/host_telemetry.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// environment.engine_setup of a 1 MiB sequential read of `target`.
std::string SetupOf(const TempDir& dir, const std::string& target,
                    const std::string& mem) {
  const std::string out = dir.File("run-" + mem + ".json");
  const Invocation run = RunFlashmark(
      {"run",       target,  "--size",     "16M",    "--file-num", "1",
       "--mode",    "seqrd", "--bs",       "1M",     "--engine",   "io_uring",
       "--iodepth", "4",     "--io-limit", "32",     "--mem",      mem,
       "--json",    out,     "-q",         "--no-db"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  if (run.exit_code != 0) return "";
  return json::parse(ReadFile(out))["environment"]["engine_setup"]
      .get<std::string>();
}

TEST(BufferMemory, TheRunRecordsWhichPagesHeldItsBuffers) {
  TempDir dir;
  const std::string malloc_setup = SetupOf(dir, dir.path(), "malloc");
  EXPECT_NE(malloc_setup.find("; IO buffers on 4 KiB pages"), std::string::npos)
      << malloc_setup;
  if (!IoBufferPool::TransparentHugePagesUsable()) {
    GTEST_SKIP() << "transparent huge pages are off here: --mem thp keeps "
                    "4 KiB pages";
  }
  const std::string thp_setup = SetupOf(dir, dir.path(), "thp");
  EXPECT_NE(thp_setup.find("; IO buffers on 2 MiB pages"), std::string::npos)
      << thp_setup;
}

// Reads the device completed (/proc/diskstats).
uint64_t ReadsCompleted(const std::string& device) {
  return ParseDiskstats(
             ReadFile("/proc/diskstats"))[device.substr(device.rfind('/') + 1)]
      .reads;
}

// Requests the device completed for 64 reads of 1 MiB, O_DIRECT.
uint64_t RequestsFor64Reads(const std::string& device, const std::string& mem) {
  const uint64_t before = ReadsCompleted(device);
  const Invocation run =
      RunFlashmark({"run", device, "--mode", "seqrd", "--bs", "1M", "--direct",
                    "--engine", "io_uring", "--iodepth", "4", "--io-limit",
                    "64", "--mem", mem, "-q", "--no-db"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return ReadsCompleted(device) - before;
}

TEST(BufferMemory, ALargeIoFromHugePagesIsOneRequestOnTheDevice) {
  FLASHMARK_REQUIRE_ROOT();
  if (!IoBufferPool::TransparentHugePagesUsable()) {
    GTEST_SKIP() << "transparent huge pages are off here";
  }
  TempDir dir;
  LoopDevice loop(dir.File("loop.img"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  // A loop device takes at most 128 segments of 64 KiB and 1280 KiB per
  // request: 256 pages of 4 KiB are two requests, 1 MiB in one piece one.
  const uint64_t from_pages = RequestsFor64Reads(loop.device(), "malloc");
  const uint64_t from_huge = RequestsFor64Reads(loop.device(), "thp");
  EXPECT_GE(from_pages, 120u) << "requests for 64 reads from 4 KiB pages";
  // (a few more for flashmark's own look at the device before it runs)
  EXPECT_GE(from_huge, 64u);
  EXPECT_LE(from_huge, 72u) << "requests for 64 reads from 2 MiB pages";
}

}  // namespace
}  // namespace flashmark::testing
