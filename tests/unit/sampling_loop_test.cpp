// SamplingLoop driven by a test clock: no sleeps, stalls on demand. The
// "workers" are one WorkerMeasures whose read count follows a 1000 IOPS
// schedule in the test clock's time, the way a rate-limited worker does:
// while the process is stopped nothing happens, and the IOs it owes are
// done in a burst just after it resumes.
#include "runner/sampling_loop.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <functional>
#include <optional>
#include <vector>

#include "test_support.h"

namespace flashmark {
namespace {

using test_support::kMs;
using test_support::kSecond;

class TestClock : public RunClock {
 public:
  explicit TestClock(WorkerMeasures& worker) : worker_(worker) {}

  uint64_t Now() override {
    Sync();
    return now_;
  }
  int WaitForInterrupt(uint64_t ns) override {
    uint64_t to = now_ + ns + wake_latency_;
    if (stall_at_ && now_ < *stall_at_ && *stall_at_ <= to) {
      resumed_at_ = to + stall_ns_;
      to = *resumed_at_;
      stall_at_.reset();
    }
    now_ = to;
    Sync();
    if (interrupt_at_ && now_ >= *interrupt_at_) {
      interrupt_at_.reset();
      return SIGHUP;
    }
    if (on_wait_) on_wait_(now_);
    return 0;
  }

  // The process stops when the clock passes `at` (while the sampler waits)
  // and runs again `ns` later.
  void StallAt(uint64_t at, uint64_t ns) {
    stall_at_ = at;
    stall_ns_ = ns;
  }
  void InterruptAt(uint64_t at) { interrupt_at_ = at; }
  // Every wait ends this much after it was due (a real wake-up's jitter).
  void SetWakeLatency(uint64_t ns) { wake_latency_ = ns; }
  void OnWait(std::function<void(uint64_t)> hook) {
    on_wait_ = std::move(hook);
  }

 private:
  // 1000 IOPS on schedule; after a stall the owed IOs complete 5 ms after
  // the resume (a burst), not at the resume instant.
  void Sync() {
    uint64_t due = now_ / kMs;
    if (resumed_at_ && now_ < *resumed_at_ + 5 * kMs) {
      due = std::min(due, stalled_ios_);
    }
    while (done_ < due) {
      worker_.reads.Add(4096);
      ++done_;
    }
    if (stall_at_) stalled_ios_ = *stall_at_ / kMs;
  }

  WorkerMeasures& worker_;
  uint64_t now_ = 0;
  uint64_t done_ = 0;
  uint64_t wake_latency_ = 0;
  std::optional<uint64_t> stall_at_;
  uint64_t stall_ns_ = 0;
  std::optional<uint64_t> resumed_at_;
  uint64_t stalled_ios_ = 0;
  std::optional<uint64_t> interrupt_at_;
  std::function<void(uint64_t)> on_wait_;
};

struct Harness {
  WorkerMeasures worker;
  Sampler sampler{{&worker}};
  TestClock clock{worker};
  RunControl control;
  std::vector<StopCondition*> conditions;
  std::vector<IntervalSample> samples;
  SamplingSettings settings{.start_ns = 0,
                            .interval_ns = kSecond,
                            .time_limit_ns = 8 * kSecond,
                            .worker_count = 1};

  std::optional<SamplingLoop> loop;
  bool Run() {
    loop.emplace(settings, sampler, clock, control, conditions);
    return loop->Run([this](IntervalSample s) { samples.push_back(s); });
  }
};

void ExpectContiguous(const std::vector<IntervalSample>& samples) {
  for (size_t i = 0; i < samples.size(); ++i) {
    EXPECT_EQ(samples[i].index, i);
    EXPECT_EQ(samples[i].start_ns, i == 0 ? 0 : samples[i - 1].end_ns)
        << "interval " << i;
  }
}

TEST(SamplingLoop, StampsEachSampleWithTheInstantsItWasTaken) {
  Harness h;
  h.clock.SetWakeLatency(300'000);  // every wake-up 0.3 ms late
  EXPECT_FALSE(h.Run());
  ASSERT_EQ(h.samples.size(), 8u);
  ExpectContiguous(h.samples);
  for (const IntervalSample& s : h.samples) {
    EXPECT_EQ(s.spans, 1u);
    EXPECT_FALSE(s.partial);
    // Taken when the sampler woke, not at k x interval.
    EXPECT_EQ(s.end_ns % kSecond, 300'000u) << s.index;
    EXPECT_NEAR(s.Iops(), 1000, 2) << s.index;
  }
  EXPECT_TRUE(h.control.stopping()) << "the time limit stops the workers";
}

TEST(SamplingLoop, TheTimeLimitEndsTheRunInsideAnInterval) {
  Harness h;
  h.settings.time_limit_ns = 2'500 * kMs;  // 2.5 intervals
  EXPECT_FALSE(h.Run());
  ASSERT_EQ(h.samples.size(), 3u);
  ExpectContiguous(h.samples);
  EXPECT_FALSE(h.samples[1].partial);
  EXPECT_EQ(h.samples[2].end_ns, 2'500 * kMs) << "not the deadline at 3 s";
  EXPECT_TRUE(h.samples[2].partial) << "cut short by the time limit";
  EXPECT_EQ(h.samples[2].read.ios, 500u);
  EXPECT_TRUE(h.control.stopping());
}

TEST(SamplingLoop, AnIntervalLongerThanTheRunIsOnePartialSample) {
  Harness h;
  h.settings.interval_ns = 3600 * kSecond;
  h.settings.time_limit_ns = kSecond;
  EXPECT_FALSE(h.Run());
  ASSERT_EQ(h.samples.size(), 1u);
  EXPECT_EQ(h.samples[0].end_ns, kSecond) << "not an hour";
  EXPECT_TRUE(h.samples[0].partial);
  EXPECT_EQ(h.samples[0].read.ios, 1000u);
}

TEST(SamplingLoop, AStallIsOneSampleWithItsTrueDurationAndSpan) {
  Harness h;
  // Stopped at 2.05 s for 2.5 s (SIGSTOP ... SIGCONT): the sampler misses
  // the deadlines at 3 and 4 s and wakes at 4.55 s, while the worker is
  // still catching up; the sample ends at the next deadline, 5 s.
  h.clock.StallAt(2'050 * kMs, 2'500 * kMs);
  EXPECT_FALSE(h.Run());
  ExpectContiguous(h.samples);
  ASSERT_EQ(h.samples.size(), 6u);
  const IntervalSample& stall = h.samples[2];
  EXPECT_EQ(stall.start_ns, 2 * kSecond);
  EXPECT_EQ(stall.end_ns, 5 * kSecond);
  EXPECT_EQ(stall.spans, 3u);
  EXPECT_EQ(stall.read.ios, 3000u)
      << "the catch-up burst is in the stall's sample";
  for (const IntervalSample& s : h.samples) {
    EXPECT_NEAR(s.Iops(), 1000, 1)
        << "no zeros, no spikes: interval " << s.index;
    EXPECT_EQ(s.spans, s.index == 2 ? 3u : 1u);
  }
  EXPECT_EQ(h.samples.back().end_ns, 8 * kSecond);
}

TEST(SamplingLoop, ALateWakeWithinTheThresholdIsSampledAtOnce) {
  Harness h;
  h.clock.StallAt(2'980 * kMs, 100 * kMs);  // woke 0.1 s late
  EXPECT_FALSE(h.Run());
  ExpectContiguous(h.samples);
  ASSERT_EQ(h.samples.size(), 8u);
  EXPECT_EQ(h.samples[2].end_ns, 3'100 * kMs);
  EXPECT_EQ(h.samples[2].spans, 1u);
  EXPECT_EQ(h.samples[3].end_ns, 4 * kSecond) << "back on the grid";
  EXPECT_EQ(h.samples[3].spans, 1u);
  EXPECT_EQ(StallThresholdNs(kSecond), 250 * kMs);
  EXPECT_EQ(StallThresholdNs(200 * kMs), 100 * kMs);
  EXPECT_EQ(StallThresholdNs(100 * kMs), 100 * kMs);
  EXPECT_EQ(StallThresholdNs(10 * kMs), 10 * kMs) << "a missed deadline";
}

TEST(SamplingLoop, AStallPastTheLastDeadlineIsSampledAtOnceAndEndsTheRun) {
  Harness h;
  h.settings.time_limit_ns = 6 * kSecond;
  h.clock.StallAt(4'500 * kMs, 3 * kSecond);  // resumes at 7.5 s
  EXPECT_FALSE(h.Run());
  ExpectContiguous(h.samples);
  ASSERT_EQ(h.samples.size(), 5u);
  EXPECT_EQ(h.samples[4].start_ns, 4 * kSecond);
  EXPECT_EQ(h.samples[4].end_ns, 7'500 * kMs);
  EXPECT_EQ(h.samples[4].spans, 3u);
  EXPECT_TRUE(h.control.stopping());
}

TEST(SamplingLoop, AnInterruptStopsWithinAnIntervalAndTheTailIsPartial) {
  Harness h;
  h.clock.InterruptAt(2'500 * kMs);
  EXPECT_TRUE(h.Run());
  EXPECT_TRUE(h.control.stopping());
  ASSERT_EQ(h.samples.size(), 2u);
  const IntervalSample tail = h.loop->TakeTail();
  EXPECT_TRUE(tail.partial);
  EXPECT_EQ(tail.index, 2u);
  EXPECT_EQ(tail.start_ns, 2 * kSecond);
  EXPECT_EQ(tail.end_ns, 2'500 * kMs);
  EXPECT_EQ(tail.spans, 1u);
  EXPECT_EQ(tail.read.ios, 500u);
}

TEST(SamplingLoop, WorkersThatFinishEndTheLoopEarly) {
  Harness h;
  h.clock.OnWait([&h](uint64_t now) {
    if (now >= 1'500 * kMs && h.control.workers_finished() == 0) {
      h.control.WorkerFinished();
    }
  });
  EXPECT_FALSE(h.Run());
  EXPECT_EQ(h.samples.size(), 1u);
}

class StopAfterSamples : public StopCondition {
 public:
  explicit StopAfterSamples(size_t count) : count_(count) {}
  bool ShouldStop(const IntervalSample& sample) override {
    seen.push_back(sample.index);
    return seen.size() >= count_;
  }
  std::vector<uint32_t> seen;

 private:
  size_t count_;
};

TEST(SamplingLoop, AStopConditionEndsTheRunAtThatBoundary) {
  Harness h;
  StopAfterSamples three(3), never(100);
  h.conditions = {&three, &never};
  EXPECT_FALSE(h.Run());
  EXPECT_TRUE(h.loop->stopped_by_condition());
  EXPECT_TRUE(h.control.stopping());
  ASSERT_EQ(h.samples.size(), 3u) << "the deciding interval is delivered";
  EXPECT_EQ(three.seen, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(never.seen, three.seen) << "every condition sees every interval";
}

}  // namespace
}  // namespace flashmark
