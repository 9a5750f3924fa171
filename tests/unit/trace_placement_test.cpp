// Where a replayed IO lands (workload/trace_placement.h): on one file the
// mapped offset itself; on a file set the files laid end to end, an IO
// that would run into the next file moved back to end in its own, still
// aligned; --map first maps onto the set's whole span.
#include "workload/trace_placement.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

TEST(TracePlacement, OneFileKeepsTheMappedOffset) {
  const TracePlacement one{3, 1, 1 << 20, 1 << 20};
  const ReplayedIoPlace at =
      PlaceTracedIo(one, TraceOffsetMap::kNone, 65536, 4096);
  EXPECT_EQ(at.file, 3u);
  EXPECT_EQ(at.offset, 65536u);
}

TEST(TracePlacement, AFileSetLaysTheDeviceEndToEndAcrossItsFiles) {
  // 4 files of 1 MiB from file 2 of the run: a traced 4 MiB device.
  const TracePlacement set{2, 4, 1 << 20, 4 << 20};
  const auto place = [&](uint64_t offset, uint32_t length) {
    return PlaceTracedIo(set, TraceOffsetMap::kNone, offset, length);
  };
  EXPECT_EQ(place(0, 4096).file, 2u);
  EXPECT_EQ(place((1 << 20) - 4096, 4096).file, 2u);
  EXPECT_EQ(place((1 << 20) - 4096, 4096).offset, (1u << 20) - 4096);
  EXPECT_EQ(place(1 << 20, 4096).file, 3u);
  EXPECT_EQ(place(1 << 20, 4096).offset, 0u);
  const ReplayedIoPlace last = place((3 << 20) + 8192, 512);
  EXPECT_EQ(last.file, 5u);
  EXPECT_EQ(last.offset, 8192u);
  // 16 KiB from 4 KiB before the end of file 0: moved back to end there.
  const ReplayedIoPlace crossing = place((1 << 20) - 4096, 16384);
  EXPECT_EQ(crossing.file, 2u);
  EXPECT_EQ(crossing.offset, (1u << 20) - 16384);
  // A 512-byte-aligned IO stays 512-byte aligned when moved back.
  const ReplayedIoPlace odd = place((2 << 20) - 512, 1536);
  EXPECT_EQ(odd.file, 3u);
  EXPECT_EQ(odd.offset, (1u << 20) - 1536);
  EXPECT_EQ(odd.offset % 512, 0u);
}

TEST(TracePlacement, TheMapWorksOnTheWholeSpan) {
  // A traced 8 MiB device onto 4 x 1 MiB: modulo folds it onto the span,
  // so offset 5 MiB lands at 1 MiB: file 1 of the set, offset 0.
  const TracePlacement set{0, 4, 1 << 20, 8 << 20};
  const ReplayedIoPlace at =
      PlaceTracedIo(set, TraceOffsetMap::kModulo, 5 << 20, 4096);
  EXPECT_EQ(at.file, 1u);
  EXPECT_EQ(at.offset, 0u);
  const ReplayedIoPlace linear =
      PlaceTracedIo(set, TraceOffsetMap::kLinear, 6 << 20, 4096);
  EXPECT_EQ(linear.file, 2u);  // three quarters of the way
}

}  // namespace
}  // namespace flashmark
