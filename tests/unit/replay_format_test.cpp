// The JSON form of a replay's outcome (document/replay_format.h): the
// fidelity series, the early count and the trace's inter-arrival times
// survive the round trip through the stored run's config.
#include "document/replay_format.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

TEST(ReplayFormat, SeriesEarlyAndTraceGapsRoundTrip) {
  ReplayOutcome replay;
  replay.trace_interarrival_p50_ns = 50'000;
  replay.trace_interarrival_p99_ns = 90'000;
  ReplayFidelity& f = replay.fidelity;
  f.timed = true;
  f.ios = 3;
  f.early = 1;
  f.series_interval_ns = 1'000'000'000;
  f.series = {{.ios = 2,
               .error_p50_ns = 1500.5,  // kept to the ns
               .error_p99_ns = 2500,
               .error_max_ns = 2600,
               .achieved_depth_mean = 1.234},
              {},
              {.ios = 1, .achieved_depth_mean = 3}};
  const nlohmann::json json = ToJson(replay);
  EXPECT_EQ(json["fidelity"]["series"]["ios"].size(), 3u);
  const ReplayOutcome back = ReplayOutcomeFromJson(json);
  EXPECT_DOUBLE_EQ(back.trace_interarrival_p50_ns, 50'000);
  EXPECT_DOUBLE_EQ(back.trace_interarrival_p99_ns, 90'000);
  EXPECT_EQ(back.fidelity.early, 1u);
  EXPECT_EQ(back.fidelity.series_interval_ns, 1'000'000'000u);
  ASSERT_EQ(back.fidelity.series.size(), 3u);
  EXPECT_EQ(back.fidelity.series[0].ios, 2u);
  EXPECT_DOUBLE_EQ(back.fidelity.series[0].error_p50_ns, 1501);
  EXPECT_DOUBLE_EQ(back.fidelity.series[0].error_p99_ns, 2500);
  EXPECT_DOUBLE_EQ(back.fidelity.series[0].error_max_ns, 2600);
  EXPECT_DOUBLE_EQ(back.fidelity.series[0].achieved_depth_mean, 1.23);
  EXPECT_EQ(back.fidelity.series[1].ios, 0u);
  EXPECT_DOUBLE_EQ(back.fidelity.series[2].achieved_depth_mean, 3);
}

TEST(ReplayFormat, AnOlderRunWithoutASeriesReadsAsNone) {
  ReplayOutcome replay;
  replay.fidelity.timed = true;
  nlohmann::json json = ToJson(replay);
  json["fidelity"].erase("series");
  json["fidelity"].erase("early");
  json.erase("trace_interarrival_ns");
  const ReplayOutcome back = ReplayOutcomeFromJson(json);
  EXPECT_TRUE(back.fidelity.series.empty());
  EXPECT_EQ(back.fidelity.series_interval_ns, 0u);
  EXPECT_EQ(back.fidelity.early, 0u);
  EXPECT_DOUBLE_EQ(back.trace_interarrival_p50_ns, 0);
}

}  // namespace
}  // namespace flashmark
