#include "analysis/throttle_finder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "common/random.h"
#include "model/throttle_schedule.h"
#include "synthetic_series.h"

namespace flashmark {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

struct Bucket {
  double burst = 0, baseline = 0, burst_seconds = 0, refill = 0;
};

// A --detect-throttle run against the model of throttle_finder.h, stepped
// every millisecond: `burst` IOPS while credits last, `baseline` after;
// credits (IOs above the baseline, a full bucket = (burst - baseline) x
// burst_seconds) spent under load and refilled at `refill` per idle
// second. Each interval's IOs get relative Gaussian noise.
std::vector<ThrottleInterval> Simulate(const Bucket& b,
                                       std::chrono::nanoseconds time,
                                       std::chrono::nanoseconds interval,
                                       double noise = 0, uint64_t seed = 1,
                                       double alias = 0) {
  const ThrottleSchedule schedule = MakeThrottleSchedule(time, interval);
  const double capacity = (b.burst - b.baseline) * b.burst_seconds;
  const double step = 1e-3;
  const auto steps_per_interval =
      static_cast<int64_t>(interval.count() / 1'000'000);
  const int64_t intervals = time.count() / interval.count();
  Random random(seed);
  double credits = capacity;
  std::vector<ThrottleInterval> out;
  for (int64_t k = 0; k < intervals; ++k) {
    double ios = 0;
    for (int64_t s = 0; s < steps_per_interval; ++s) {
      const auto at =
          static_cast<uint64_t>((k * steps_per_interval + s) * 1'000'000);
      if (ThrottleIdleUntil(schedule, at) == 0) {
        const double rate = credits > 0 ? b.burst : b.baseline;
        ios += rate * step;
        credits = std::max(0.0, credits - (rate - b.baseline) * step);
      } else {
        credits = std::min(capacity, credits + b.refill * step);
      }
    }
    // A throttle that dispatches in slices: loaded intervals alternate
    // (1 + alias) and (1 - alias) times the rate.
    if (k % 2 == 0) ios *= 1 + alias;
    if (k % 2 == 1) ios *= 1 - alias;
    const double length = static_cast<double>(steps_per_interval) * step;
    out.push_back({static_cast<double>(k) * length,
                   static_cast<double>(k + 1) * length,
                   ios * (1 + noise * synthetic::Gaussian(random))});
  }
  return out;
}

ThrottleFinding Find(const std::vector<ThrottleInterval>& intervals,
                     std::chrono::nanoseconds time,
                     std::chrono::nanoseconds interval) {
  auto found = FindThrottle(intervals, MakeThrottleSchedule(time, interval));
  EXPECT_TRUE(found.ok()) << found.error().message;
  return found.ok() ? *found : ThrottleFinding{};
}

TEST(ThrottleSchedule, GapsGrowAndLoadFollowsEach) {
  const ThrottleSchedule s =
      MakeThrottleSchedule(seconds(48), milliseconds(250));
  ASSERT_EQ(s.load.size(), 4u);
  EXPECT_EQ(s.unit_ns, 2'000'000'000u);
  EXPECT_EQ(s.load[0].start_ns, 0u);
  EXPECT_EQ(s.load[0].end_ns, 24'000'000'000u);
  EXPECT_EQ(s.load[1].gap_before_ns, 2'000'000'000u);
  EXPECT_EQ(s.load[1].start_ns, 26'000'000'000u);
  EXPECT_EQ(s.load[2].gap_before_ns, 4'000'000'000u);
  EXPECT_EQ(s.load[3].gap_before_ns, 6'000'000'000u);
  EXPECT_EQ(s.load[3].end_ns, 48'000'000'000u);
  EXPECT_EQ(ThrottleIdleUntil(s, 1'000'000'000u), 0u);
  EXPECT_EQ(ThrottleIdleUntil(s, 24'000'000'000u), 26'000'000'000u);
  EXPECT_EQ(ThrottleIdleUntil(s, 26'500'000'000u), 0u);
  EXPECT_EQ(ThrottleIdleUntil(s, 48'000'000'000u), UINT64_MAX);
}

TEST(ThrottleSchedule, TooShortARunHasNone) {
  EXPECT_EQ(MinThrottleTime(seconds(1)), seconds(48));
  EXPECT_TRUE(MakeThrottleSchedule(seconds(47), seconds(1)).load.empty());
  EXPECT_FALSE(MakeThrottleSchedule(seconds(48), seconds(1)).load.empty());
  // Units are whole intervals: 50 s / 24 is 2 s at 1 s intervals.
  EXPECT_EQ(MakeThrottleSchedule(seconds(50), seconds(1)).unit_ns,
            2'000'000'000u);
}

TEST(ThrottleFinder, FindsACloudVolumesBucketAndSaysSoLikeTheIssue) {
  const Bucket truth{3000, 300, 412, 100};
  const auto time = std::chrono::hours(1);
  const ThrottleFinding f =
      Find(Simulate(truth, time, seconds(1)), time, seconds(1));
  ASSERT_TRUE(f.throttled);
  EXPECT_NEAR(f.burst_iops, 3000, 1e-6);
  EXPECT_NEAR(f.baseline_iops, 300, 1e-6);
  EXPECT_NEAR(f.burst_seconds, 412, 0.01);
  EXPECT_NEAR(f.bucket_ios, 2700 * 412, 10);
  ASSERT_TRUE(f.refill_found) << f.refill_note;
  EXPECT_NEAR(f.refill_per_second, 100, 0.5);
  ASSERT_EQ(f.probes.size(), 3u);
  EXPECT_EQ(f.probes[0].gap_seconds, 150);
  EXPECT_EQ(f.probes[2].gap_seconds, 450);
  for (const ThrottleProbe& probe : f.probes) EXPECT_TRUE(probe.used);
  EXPECT_EQ(ThrottleSentence(f),
            "burst 3000 IOPS for 412 s, then baseline 300 IOPS; refills 100 "
            "IOPS-s per s");
}

// A short probe's bucket (tests/integration/throttle_test.cpp's at twice
// its rates), with 5 % noise per interval: within 5 % on every seed.
TEST(ThrottleFinder, NoisyShortProbeWithinFivePercent) {
  const Bucket truth{2000, 500, 5, 500};
  const auto time = seconds(48);
  const auto interval = milliseconds(250);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const ThrottleFinding f =
        Find(Simulate(truth, time, interval, 0.05, seed), time, interval);
    ASSERT_TRUE(f.throttled) << "seed " << seed;
    EXPECT_NEAR(f.burst_iops, 2000, 100) << "seed " << seed;
    EXPECT_NEAR(f.baseline_iops, 500, 25) << "seed " << seed;
    EXPECT_NEAR(f.burst_seconds, 5, 0.25) << "seed " << seed;
    ASSERT_TRUE(f.refill_found) << f.refill_note;
    EXPECT_NEAR(f.refill_per_second, 500, 50) << "seed " << seed;
  }
}

// blk-throttle at 2000 IOPS gives 250 ms intervals of 2400, 1600, 2400...
// (100 ms dispatch slices): the medians of such values are either level,
// the IO rates are right.
TEST(ThrottleFinder, IntervalsThatAlternateLikeBlkThrottleWithinFivePercent) {
  const Bucket truth{2000, 500, 5, 500};
  const auto time = seconds(48);
  const auto interval = milliseconds(250);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const ThrottleFinding f =
        Find(Simulate(truth, time, interval, 0.02, seed, 0.2), time, interval);
    ASSERT_TRUE(f.throttled) << "seed " << seed;
    EXPECT_NEAR(f.burst_iops, 2000, 100) << "seed " << seed;
    EXPECT_NEAR(f.baseline_iops, 500, 25) << "seed " << seed;
    EXPECT_NEAR(f.burst_seconds, 5, 0.25) << "seed " << seed;
    ASSERT_TRUE(f.refill_found) << f.refill_note;
    EXPECT_NEAR(f.refill_per_second, 500, 50) << "seed " << seed;
  }
}

TEST(ThrottleFinder, NeverInventsABurstOnAFlatNoisyDevice) {
  const auto time = seconds(120);
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    // 3 % noise: a device that never throttles (burst = baseline).
    const ThrottleFinding f =
        Find(Simulate({28900, 28900, 0, 0}, time, seconds(1), 0.03, seed), time,
             seconds(1));
    EXPECT_FALSE(f.throttled) << "seed " << seed << ": " << ThrottleSentence(f);
    EXPECT_NEAR(f.steady_iops, 28900, 28900 * 0.01);
  }
  const ThrottleFinding exact =
      Find(Simulate({28900, 28900, 0, 0}, time, seconds(1)), time, seconds(1));
  EXPECT_EQ(ThrottleSentence(exact),
            "no throttling seen: 28900 IOPS throughout");
}

TEST(ThrottleFinder, ASmallDropIsNotThrottling) {
  // 5 % lower after 20 s: a regime change, but not a burst bucket.
  const auto time = seconds(96);
  const ThrottleFinding f =
      Find(Simulate({1050, 1000, 20, 0}, time, seconds(1)), time, seconds(1));
  EXPECT_FALSE(f.throttled) << ThrottleSentence(f);
}

TEST(ThrottleFinder, ABucketRefilledByTheShortestGapGivesALowerBound) {
  // Refill 10000 IOs/s: the 2 s gap refills the whole 5 s bucket, which
  // the 4 s of load after it cannot spend.
  const auto time = seconds(48);
  const ThrottleFinding f =
      Find(Simulate({2000, 500, 5, 10000}, time, milliseconds(250)), time,
           milliseconds(250));
  ASSERT_TRUE(f.throttled);
  EXPECT_FALSE(f.refill_found);
  for (const ThrottleProbe& probe : f.probes) {
    EXPECT_FALSE(probe.spent);
    EXPECT_FALSE(probe.used);
  }
  // 4 s at 1500 IOPS above the baseline after a 2 s gap.
  EXPECT_EQ(
      f.refill_note,
      "the shortest idle gap (2.00 s) refilled more than the load after it "
      "spent: refills at least 3000 IOPS-s per s");
  EXPECT_EQ(ThrottleSentence(f),
            "burst 2000 IOPS for 5.00 s, then baseline 500 IOPS; refill not "
            "found (" +
                f.refill_note + ")");
}

TEST(ThrottleFinder, AFullBucketAfterAGapIsLeftOutOfTheFit) {
  // A 1 s bucket (1500 IOs) refilled at 1000/s: full after each gap (2, 4,
  // 6 s) and spent within the load after it: no probe measures the rate.
  const auto time = seconds(48);
  const ThrottleFinding f =
      Find(Simulate({2000, 500, 1, 1000}, time, milliseconds(250)), time,
           milliseconds(250));
  ASSERT_TRUE(f.throttled);
  EXPECT_NEAR(f.burst_seconds, 1, 0.01);
  EXPECT_FALSE(f.refill_found);
  for (const ThrottleProbe& probe : f.probes) {
    EXPECT_TRUE(probe.spent);
    EXPECT_TRUE(probe.full);
  }
  // At least the bucket (1500 IOs) over the 2 s gap.
  EXPECT_EQ(f.refill_note,
            "the shortest idle gap (2.00 s) refilled the whole bucket: "
            "refills at least 750 IOPS-s per s");
}

TEST(ThrottleFinder, WithoutRefillEveryProbeStaysAtTheBaseline) {
  const auto time = seconds(48);
  const ThrottleFinding f =
      Find(Simulate({2000, 500, 5, 0}, time, milliseconds(250)), time,
           milliseconds(250));
  ASSERT_TRUE(f.throttled);
  ASSERT_TRUE(f.refill_found);
  EXPECT_NEAR(f.refill_per_second, 0, 1);
}

TEST(ThrottleFinder, RefusesARunThatWasNotAProbe) {
  RunResult run;
  const auto found = FindRunThrottle(run);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().message, "the run was not a throttle probe");
  EXPECT_FALSE(FindThrottle({}, ThrottleSchedule{}).ok());
  const auto cut = FindThrottle(std::vector<ThrottleInterval>(3, {0, 1, 100}),
                                MakeThrottleSchedule(seconds(48), seconds(1)));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.error().message.find("needs 6"), std::string::npos);
}

}  // namespace
}  // namespace flashmark
