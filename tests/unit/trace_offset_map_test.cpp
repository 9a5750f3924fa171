// --map's offset mappings (workload/trace_offset_map.h) and --timing's
// values (workload/replay_timing.h), exact.
#include "workload/trace_offset_map.h"

#include <gtest/gtest.h>

#include "workload/replay_timing.h"

namespace flashmark {
namespace {

constexpr uint64_t kMapKiB = 1024;
constexpr uint64_t kMapMiB = 1024 * kMapKiB;

TEST(TraceOffsetMap, NoneLeavesOffsets) {
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kNone, 5 * kMapMiB, 4096,
                           8 * kMapMiB, 1 * kMapMiB),
            5 * kMapMiB);
}

TEST(TraceOffsetMap, LinearKeepsTheRelativePlace) {
  // 8 MiB traced onto 1 MiB + 1000 bytes: T' = 1 MiB; room = 1 MiB - 4 KiB.
  const uint64_t target = kMapMiB + 1000;
  const uint64_t extent = 8 * kMapMiB;
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kLinear, 0, 4096, extent, target),
            0u);
  // The last IO of the trace lands on the last block of the target.
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kLinear, extent - 4096, 4096, extent,
                           target),
            kMapMiB - 4096);
  // Halfway: (4 MiB) x (1 MiB - 4 KiB) / (8 MiB - 4 KiB) = 524,032.06..,
  // rounded down to 4 KiB: 520,192.
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kLinear, 4 * kMapMiB, 4096, extent,
                           target),
            520'192u);
  // A 512-byte-aligned offset keeps 512-byte alignment only.
  EXPECT_EQ(
      MapTraceOffset(TraceOffsetMap::kLinear, 512, 512, 2 * kMapMiB, kMapMiB),
      0u);
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kLinear, 1536, 512,
                           2 * kMapMiB + 512, kMapMiB),
            512u);
}

TEST(TraceOffsetMap, ModuloFoldsAndMovesAnIoCrossingTheEndBack) {
  const uint64_t target = 1 * kMapMiB;
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kModulo, 3 * kMapMiB + 8192, 4096,
                           8 * kMapMiB, target),
            8192u);
  // 3 MiB - 4 KiB + 2 KiB (2 KiB aligned): 1 MiB - 2 KiB crosses the end
  // with 4 KiB: moved back to 1 MiB - 4 KiB.
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kModulo, 3 * kMapMiB - 2048, 4096,
                           8 * kMapMiB, target),
            kMapMiB - 4096);
  // The target rounded down to 4 KiB: 1 MiB + 100 acts as 1 MiB.
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kModulo, kMapMiB + 4096, 4096,
                           8 * kMapMiB, kMapMiB + 100),
            4096u);
}

TEST(TraceOffsetMap, WrapStartsAnIoCrossingTheEndOverAtZero) {
  const uint64_t target = 1 * kMapMiB;
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kWrap, 5 * kMapMiB + 12288, 4096,
                           8 * kMapMiB, target),
            12288u);
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kWrap, 3 * kMapMiB - 2048, 4096,
                           8 * kMapMiB, target),
            0u);
  // An IO longer than the target lands at 0.
  EXPECT_EQ(MapTraceOffset(TraceOffsetMap::kWrap, 4096, 2 * kMapMiB,
                           8 * kMapMiB, target),
            0u);
}

TEST(TraceOffsetMap, ParsesTheNamesAndRefusesOthers) {
  EXPECT_EQ(*ParseTraceOffsetMap("linear"), TraceOffsetMap::kLinear);
  EXPECT_EQ(*ParseTraceOffsetMap("modulo"), TraceOffsetMap::kModulo);
  EXPECT_EQ(*ParseTraceOffsetMap("wrap"), TraceOffsetMap::kWrap);
  const auto bad = ParseTraceOffsetMap("stretch");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().exit_code, 2);
  EXPECT_NE(bad.error().message.find("stretch"), std::string::npos);
}

TEST(ReplayTiming, ParsesOriginalScaledAndAfap) {
  EXPECT_EQ(ParseReplayTiming("original")->kind, ReplayTiming::Kind::kOriginal);
  EXPECT_EQ(ParseReplayTiming("afap")->kind, ReplayTiming::Kind::kAfap);
  const auto scaled = ParseReplayTiming("scaled:2");
  ASSERT_TRUE(scaled.ok());
  EXPECT_EQ(scaled->IntendedNs(1'000'000), 500'000);
  EXPECT_EQ(ReplayTimingName(*scaled), "scaled:2");
  EXPECT_EQ(ParseReplayTiming("scaled:0.5")->IntendedNs(1000), 2000);
  for (const char* bad :
       {"scaled:0", "scaled:-1", "scaled:", "scaled:x", "fast", "scaled:inf"}) {
    const auto parsed = ParseReplayTiming(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.error().exit_code, 2) << bad;
  }
}

}  // namespace
}  // namespace flashmark
