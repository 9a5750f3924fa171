// The two halves of the run's steady-state watch: SteadyStateStop decides
// on the sampler's thread, SteadyStateWatch prints on the output thread;
// fed the same intervals they agree, and only the stop decides.
#include "runner/steady_state_watch.h"

#include <sstream>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace flashmark
