// The SMART reader thread of a run: a reading is made of a health read with
// a media figure and the disk's diskstats bytes, none without one; the
// thread stops at once when asked (the run's end must not wait out its
// 60 s period). The tools' parsing is tested in write_counters_test.cpp.
#include "system/write_counter_sampler.h"

#include <gtest/gtest.h>

#include <chrono>

namespace flashmark {
namespace {

TEST(WriteCounterSampler, AReadingCarriesTheMediaFigureAndTheHostBytes) {
  DeviceHealth health;
  health.media_bytes_written = 5'000'000'000;
  health.media_counter = "ATA 249 NAND_Writes_1GiB";
  health.media_step_bytes = uint64_t{1} << 30;
  const auto reading = ReadingOf("sdb", 123'456'789, health);
  ASSERT_TRUE(reading.has_value());
  EXPECT_EQ(reading->device, "sdb");
  EXPECT_EQ(reading->host_bytes, 123'456'789u);
  EXPECT_EQ(reading->media_bytes, 5'000'000'000u);
  EXPECT_EQ(reading->media_step_bytes, uint64_t{1} << 30);
  EXPECT_EQ(reading->counter, "ATA 249 NAND_Writes_1GiB");
  DeviceHealth pages;
  pages.host_program_pages = 10;
  EXPECT_FALSE(ReadingOf("sdb", 1, pages).has_value());  // 248 missing
  pages.background_program_pages = 4;
  EXPECT_EQ(ReadingOf("sdb", 1, pages)->background_pages, 4u);
  EXPECT_FALSE(ReadingOf("sdb", 1, DeviceHealth{}).has_value());
}

TEST(WriteCounterSampler, StopsAtOnceAndKeepsNothingFromADiskWithoutSmart) {
  BlockDevice loop;
  loop.name = "loop0";
  loop.path = "/dev/loop0";
  loop.transport = "loop";  // "no SMART on loop devices": no reading
  const auto start = std::chrono::steady_clock::now();
  {
    WriteCounterSampler sampler({loop}, HealthTools{true, true},
                                std::chrono::seconds(60));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(sampler.Take().empty());
    sampler.Stop();
    EXPECT_TRUE(sampler.Take().empty());
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace flashmark
