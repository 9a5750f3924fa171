// --trace-sample: which IOs a sampled trace follows (the windows and the
// kernel's mask), and the option: validation and its errors, the command
// that repeats a run, the stored config (runs stored before it traced
// every IO).
#include "model/trace_sample.h"

#include <gtest/gtest.h>

#include <string>

#include "config/run_options.h"
#include "document/json_format.h"

namespace flashmark {
namespace {

TEST(TraceSample, TheWindowIsTheLargestIoRoundedUpToAPowerOfTwo) {
  // 4 KiB: windows of 8 sectors, every 16th followed: the filter that the
  // kernel was seen to accept (!(sector & 120)).
  const TraceSample four_k = TraceSample::OneIn(16, 4096);
  EXPECT_EQ(four_k.mask, 120u);
  EXPECT_EQ(four_k.WindowBytes(), 4096u);
  // 12 KiB rounds up to 16 KiB (32 sectors).
  EXPECT_EQ(TraceSample::OneIn(16, 12288).mask, 15u << 5);
  EXPECT_EQ(TraceSample::OneIn(4, 512).mask, 3u);
  EXPECT_EQ(TraceSample::OneIn(4, 100).mask, 3u);  // under a sector: one
  EXPECT_EQ(TraceSample::OneIn(16, 1 << 20).WindowBytes(), 1u << 20);
}

TEST(TraceSample, OneInOneFollowsEveryIo) {
  const TraceSample every = TraceSample::OneIn(1, 128 << 10);
  EXPECT_EQ(every.mask, 0u);
  for (const uint64_t sector : {0ull, 1ull, 8ull, 12345ull, 1ull << 40}) {
    EXPECT_TRUE(every.Follows(sector)) << sector;
  }
}

TEST(TraceSample, OneWindowInNIsFollowedWhole) {
  const TraceSample sample = TraceSample::OneIn(16, 16384);  // 32 sectors
  uint64_t followed = 0;
  for (uint64_t window = 0; window < 16 * 100; ++window) {
    const uint64_t first = window * 32;
    const bool follows = sample.Follows(first);
    followed += follows;
    // A piece of an IO the kernel split lies in its IO's window: kept or
    // dropped with it.
    for (uint64_t sector = first + 1; sector < first + 32; ++sector) {
      ASSERT_EQ(sample.Follows(sector), follows) << sector;
    }
  }
  EXPECT_EQ(followed, 100u);
  EXPECT_TRUE(sample.Follows(0));
  EXPECT_FALSE(sample.Follows(32));
  EXPECT_TRUE(sample.Follows(16 * 32));
}

RunOptions Traced() {
  RunOptions options;
  options.direct = true;
  options.targets = {"/dev/nvme9n1"};
  return options;
}

TEST(TraceSample, TheOptionIsCheckedRepeatedAndStored) {
  RunOptions options = Traced();
  auto built = BuildJobSpec(options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_EQ(built->spec.trace_sample, 16u);  // the default
  EXPECT_EQ(ReproduceCommand(built->spec).find("--trace-sample"),
            std::string::npos);
  options.trace_sample = "1";
  built = BuildJobSpec(options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_EQ(built->spec.trace_sample, 1u);
  EXPECT_NE(ReproduceCommand(built->spec).find(" --trace-sample 1"),
            std::string::npos)
      << ReproduceCommand(built->spec);
  auto config = ToJson(built->spec);
  EXPECT_EQ(config["trace_sample"], 1);
  config["trace_sample"] = 64;
  EXPECT_EQ(JobSpecFromJson(config)->trace_sample, 64u);
  // Stored before the option: every IO was traced.
  config.erase("trace_sample");
  EXPECT_EQ(JobSpecFromJson(config)->trace_sample, 1u);
  config["trace_sample"] = 12;
  auto malformed = JobSpecFromJson(config);
  ASSERT_FALSE(malformed.ok());
  EXPECT_NE(malformed.error().message.find("trace_sample 12 is not a power"),
            std::string::npos)
      << malformed.error().message;
}

TEST(TraceSample, ABadSampleIsAUsageErrorWithAHint) {
  const auto error_of = [](const std::string& value) {
    RunOptions options = Traced();
    options.trace_sample = value;
    auto built = BuildJobSpec(options);
    if (built.ok()) return std::string("(accepted)");
    EXPECT_EQ(built.error().exit_code, kUsageExit);
    return built.error().message + " | " + built.error().hint;
  };
  EXPECT_EQ(error_of("12"),
            "--trace-sample: 12 is not a power of two | the kernel picks the "
            "IOs by their sectors' bits; try --trace-sample 8");
  EXPECT_NE(error_of("0").find("--trace-sample: 0 is not a positive number"),
            std::string::npos)
      << error_of("0");
  EXPECT_NE(error_of("1/16").find("\"1/16\" is not a whole number"),
            std::string::npos)
      << error_of("1/16");
  EXPECT_NE(error_of("131072").find("more than the maximum 65536"),
            std::string::npos)
      << error_of("131072");
  EXPECT_EQ(error_of("65536"), "(accepted)");
}

}  // namespace
}  // namespace flashmark
