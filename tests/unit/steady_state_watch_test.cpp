// The two halves of the run's steady-state watch: SteadyStateStop decides
// on the sampler's thread, SteadyStateWatch prints on the output thread;
// fed the same intervals they agree, and only the stop decides.
#include "runner/steady_state_watch.h"

#include <gtest/gtest.h>

#include <sstream>

namespace flashmark {
namespace {

IntervalSample Steady(uint32_t index) {
  IntervalSample sample;
  sample.index = index;
  sample.start_ns = index * 1'000'000'000ull;
  sample.end_ns = sample.start_ns + 1'000'000'000ull;
  sample.write = {25600, 25600ull * 4096};  // 100 MiB/s
  return sample;
}

TEST(SteadyStateWatch, StopAndWatchReachTheSameVerdictAtTheSameInterval) {
  JobSpec spec;
  spec.interval = std::chrono::seconds(1);
  spec.steady_round = std::chrono::seconds(1);
  spec.until_steady = true;
  SteadyStateStop stop(spec);
  std::ostringstream console;
  SteadyStateWatch watch(spec, console);
  RunResult header;
  uint32_t stopped_at = 0;
  for (uint32_t i = 0; i < 20 && stopped_at == 0; ++i) {
    const IntervalSample sample = Steady(i);
    const bool should_stop = stop.ShouldStop(sample);
    watch.OnInterval(header, sample);
    const bool printed =
        console.str().find("steady state reached") != std::string::npos;
    EXPECT_EQ(should_stop, printed) << "interval " << i;
    if (should_stop) stopped_at = i + 1;
  }
  EXPECT_EQ(stopped_at, 5u) << "five rounds of one second";
  EXPECT_NE(console.str().find("stopping (--until-steady)"), std::string::npos)
      << console.str();

  // A partial interval (the run's drain) is no round's part.
  SteadyStateStop fresh(spec);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_FALSE(fresh.ShouldStop(Steady(i)));
  IntervalSample tail = Steady(4);
  tail.partial = true;
  EXPECT_FALSE(fresh.ShouldStop(tail));
  EXPECT_TRUE(fresh.ShouldStop(Steady(4)));
}

// An interval of `mibs` MiB/s with +-1 % of deterministic noise.
IntervalSample At(uint32_t index, double mibs) {
  IntervalSample sample = Steady(index);
  const double noise = 0.01 * (((index * 7919u) % 21u) / 10.0 - 1.0);
  sample.write.ios = static_cast<uint64_t>(mibs * (1 + noise) * 256);
  sample.write.bytes = sample.write.ios * 4096;
  return sample;
}

// Seconds at which `stop` ends a run of `level(t)` (0: it never did in
// 200 s).
uint32_t StopTime(SteadyStateStop& stop, double (*level)(uint32_t)) {
  for (uint32_t i = 0; i < 200; ++i) {
    if (stop.ShouldStop(At(i, level(i)))) return i + 1;
  }
  return 0;
}

// With --min-time, a cliff inside the minimum voids the steady window
// found before it: the run stops only once the final regime is steady,
// by the headline's rule; without one it stops at SNIA's first window.
TEST(SteadyStateWatch, MinTimeStopsOnlyOnceTheFinalRegimeIsSteady) {
  JobSpec spec;
  spec.interval = std::chrono::seconds(1);
  spec.steady_round = std::chrono::seconds(2);
  spec.until_steady = true;
  auto cliff = [](uint32_t t) { return t < 26 ? 100.0 : 50.0; };
  SteadyStateStop plain(spec);
  EXPECT_EQ(StopTime(plain, cliff), 10u) << "five rounds of 2 s at 100 MiB/s";

  spec.min_time = std::chrono::seconds(30);
  SteadyStateStop held(spec);
  const uint32_t stopped = StopTime(held, cliff);
  // Not at 30 s on the strength of the window before the cliff: five
  // rounds of the final regime (from 26 s) are needed.
  EXPECT_GE(stopped, 36u) << "stopped inside the voided window";
  EXPECT_LE(stopped, 60u) << "the final regime is steady well before";
  EXPECT_EQ(stopped % 2, 0u) << "judged at the end of a round";

  // A run steady from the start stops at the first round end after it.
  SteadyStateStop flat(spec);
  EXPECT_EQ(StopTime(flat, [](uint32_t) { return 100.0; }), 30u);

  // What the watch says on reaching SNIA's first window.
  std::ostringstream console;
  SteadyStateWatch watch(spec, console);
  for (uint32_t i = 0; i < 12; ++i) watch.OnInterval(RunResult(), At(i, 100));
  EXPECT_NE(console.str().find("going on: with --min-time 30 s"),
            std::string::npos)
      << console.str();
}

}  // namespace
}  // namespace flashmark
