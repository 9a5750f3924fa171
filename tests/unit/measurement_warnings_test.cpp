// MeasurementWarnings: a run whose targets fit in memory without --direct
// is told (and the report shows) that it measures the page cache.
#include "campaign/measurement_warnings.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

Environment WithTargets(uint64_t target_bytes, uint64_t memory_bytes) {
  Environment environment;
  environment.memory_bytes = memory_bytes;
  TargetInfo target;
  target.bytes = target_bytes;
  environment.targets = {target, target};
  return environment;
}

TEST(MeasurementWarnings, ATargetSetThatFitsInMemoryMeasuresThePageCache) {
  JobSpec spec;
  spec.engine = "psync";
  const auto warnings =
      MeasurementWarnings(spec, WithTargets(1ull << 30, 16ull << 30));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("2 GiB"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("16 GiB"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("measures the page cache, not the device"),
            std::string::npos);
  EXPECT_NE(warnings[0].find("add --direct"), std::string::npos);
}

TEST(MeasurementWarnings, DirectIoLargerSetsAndTheNullEngineAreNotWarned) {
  JobSpec spec;
  spec.engine = "psync";
  spec.direct = true;
  EXPECT_TRUE(
      MeasurementWarnings(spec, WithTargets(1ull << 30, 16ull << 30)).empty());
  spec.direct = false;
  EXPECT_TRUE(
      MeasurementWarnings(spec, WithTargets(10ull << 30, 16ull << 30)).empty());
  spec.engine = "null";
  EXPECT_TRUE(
      MeasurementWarnings(spec, WithTargets(1ull << 30, 16ull << 30)).empty());
  spec.engine = "io_uring_cmd";  // NVMe commands never use the cache
  EXPECT_TRUE(
      MeasurementWarnings(spec, WithTargets(1ull << 30, 16ull << 30)).empty());
  spec.engine = "psync";  // memory unknown: nothing to judge by
  EXPECT_TRUE(MeasurementWarnings(spec, WithTargets(1ull << 30, 0)).empty());
}

TEST(MeasurementWarnings, AnEngineWithoutDirectIoIsNotToldToAddIt) {
  JobSpec spec;
  spec.engine = "mmap";
  const auto warnings =
      MeasurementWarnings(spec, WithTargets(1ull << 30, 16ull << 30));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].find("add --direct"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("the mmap engine cannot bypass it"),
            std::string::npos)
      << warnings[0];
}

}  // namespace
}  // namespace flashmark
