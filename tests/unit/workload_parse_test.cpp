#include "config/workload_parse.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "model/job_spec.h"

namespace flashmark {
namespace {

using Mix = std::vector<BlockSizeWeight>;

// (bytes, weight) pairs, for readable comparisons.
std::vector<std::pair<uint32_t, uint32_t>> MixPairs(const Mix& mix) {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (const BlockSizeWeight& part : mix) {
    pairs.emplace_back(part.bytes, part.weight);
  }
  return pairs;
}

constexpr IoMode kAllModes[] = {IoMode::kRndRd, IoMode::kRndWr,
                                IoMode::kRndRw, IoMode::kSeqRd,
                                IoMode::kSeqWr, IoMode::kSeqRewr};

TEST(ParseModeTest, SysbenchNamesAndFioAliases) {
  const std::vector<std::pair<const char*, IoMode>> cases = {
      {"rndrd", IoMode::kRndRd},    {"rndwr", IoMode::kRndWr},
      {"rndrw", IoMode::kRndRw},    {"seqrd", IoMode::kSeqRd},
      {"seqwr", IoMode::kSeqWr},    {"seqrewr", IoMode::kSeqRewr},
      {"randread", IoMode::kRndRd}, {"randwrite", IoMode::kRndWr},
      {"randrw", IoMode::kRndRw},   {"read", IoMode::kSeqRd},
      {"write", IoMode::kSeqWr},    {"rewrite", IoMode::kSeqRewr},
      {"RNDWR", IoMode::kRndWr},    {" seqrd ", IoMode::kSeqRd},
  };
  for (const auto& [text, mode] : cases) {
    const Result<IoMode> result = ParseMode(text);
    ASSERT_TRUE(result.ok()) << text;
    EXPECT_EQ(*result, mode) << text;
  }
}

TEST(ParseModeTest, UnknownModeListsValidOnes) {
  const Result<IoMode> result = ParseMode("rndwrite");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "unknown mode \"rndwrite\"");
  EXPECT_EQ(result.error().hint,
            "modes: rndrd rndwr rndrw seqrd seqwr seqrewr "
            "(fio: randread randwrite randrw read write rewrite)");
  EXPECT_EQ(result.error().exit_code, kUsageExit);
  EXPECT_FALSE(ParseMode("").ok());
}

TEST(ParseBlockSizeMixTest, SingleSize) {
  EXPECT_EQ(MixPairs(*ParseBlockSizeMix("16k")), (MixPairs({{16384, 100}})));
  EXPECT_EQ(MixPairs(*ParseBlockSizeMix("512")), (MixPairs({{512, 100}})));
  EXPECT_EQ(MixPairs(*ParseBlockSizeMix("64MiB")),
            (MixPairs({{67108864, 100}})));
  EXPECT_EQ(MixPairs(*ParseBlockSizeMix("1.5k")), (MixPairs({{1536, 100}})));
  EXPECT_EQ(MixPairs(*ParseBlockSizeMix("4k/100")), (MixPairs({{4096, 100}})));
}

TEST(ParseBlockSizeMixTest, Mix) {
  EXPECT_EQ(MixPairs(*ParseBlockSizeMix("4k/60:64k/40")),
            (MixPairs({{4096, 60}, {65536, 40}})));
  EXPECT_EQ(MixPairs(*ParseBlockSizeMix("64k/10:4k/50:1M/40")),
            (MixPairs({{65536, 10}, {4096, 50}, {1048576, 40}})));
  EXPECT_EQ(MixPairs(*ParseBlockSizeMix(" 4k / 60 : 8k / 40 ")),
            (MixPairs({{4096, 60}, {8192, 40}})));
}

TEST(ParseBlockSizeMixTest, WeightsMustAddUpTo100) {
  const Result<Mix> result = ParseBlockSizeMix("4k/60:64k/30");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message,
            "the weights of block-size mix \"4k/60:64k/30\" add up to 90, "
            "not 100");
  EXPECT_FALSE(result.error().hint.empty());
  EXPECT_NE(ParseBlockSizeMix("4k/60:64k/60").error().message.find("120"),
            std::string::npos);
}

TEST(ParseBlockSizeMixTest, RejectsBadSizesAndWeights) {
  for (const char* text :
       {"", "0", "1000", "4x", "128M", "65M", "4k:64k", "4k/0:64k/100",
        "4k/abc", "4k/50:4k/50", "4k/-10:64k/110", "4k/60:", "4k/60.5:8k/39.5",
        "4k/101"}) {
    const Result<Mix> result = ParseBlockSizeMix(text);
    ASSERT_FALSE(result.ok()) << "accepted: " << text;
    EXPECT_EQ(result.error().exit_code, kUsageExit);
    EXPECT_FALSE(result.error().hint.empty()) << text;
  }
  EXPECT_EQ(ParseBlockSizeMix("1000").error().message,
            "block size \"1000\" is not a multiple of 512 bytes from 512 to "
            "64 MiB");
  EXPECT_EQ(ParseBlockSizeMix("4k:64k").error().message,
            "\"4k\" in block-size mix \"4k:64k\" has no weight");
  EXPECT_EQ(ParseBlockSizeMix("4k/50:4k/50").error().message,
            "block size 4 KiB appears twice in \"4k/50:4k/50\"");
}

TEST(ParseDistributionTest, KindsAndParameters) {
  const Distribution uniform = *ParseDistribution("uniform");
  EXPECT_EQ(uniform.kind, DistributionKind::kUniform);
  const Distribution zipf = *ParseDistribution("zipf:1.2");
  EXPECT_EQ(zipf.kind, DistributionKind::kZipf);
  EXPECT_EQ(zipf.parameter, 1.2);
  EXPECT_EQ(ParseDistribution("zipf:0.8")->parameter, 0.8);
  const Distribution pareto = *ParseDistribution("pareto:0.9");
  EXPECT_EQ(pareto.kind, DistributionKind::kPareto);
  EXPECT_EQ(pareto.parameter, 0.9);
  const Distribution normal = *ParseDistribution("normal:10");
  EXPECT_EQ(normal.kind, DistributionKind::kNormal);
  EXPECT_EQ(normal.parameter, 10);
  EXPECT_EQ(ParseDistribution("normal:100")->parameter, 100);
}

TEST(ParseDistributionTest, ZonedKeepsItsZonesInOrder) {
  const Distribution zoned = *ParseDistribution("zoned:50/5:30/15:20/80");
  EXPECT_EQ(zoned.kind, DistributionKind::kZoned);
  ASSERT_EQ(zoned.zones.size(), 3u);
  EXPECT_EQ(zoned.zones[0].access, 50);
  EXPECT_EQ(zoned.zones[0].range, 5);
  EXPECT_EQ(zoned.zones[2].access, 20);
  EXPECT_EQ(zoned.zones[2].range, 80);
  EXPECT_EQ(DistributionText(zoned), "zoned:50/5:30/15:20/80");
  for (const char* text :
       {"zoned:50/5:30/15", "zoned:", "zoned:100", "zoned:100/0", "zoned:x/100",
        "zoned:-10/50:110/50"}) {
    const Result<Distribution> result = ParseDistribution(text);
    ASSERT_FALSE(result.ok()) << "accepted: " << text;
    EXPECT_NE(result.error().message.find('"' + std::string(text) + '"'),
              std::string::npos)
        << result.error().message;
    EXPECT_NE(result.error().hint.find("zoned:50/5:30/15:20/80"),
              std::string::npos);
  }
}

TEST(ParseDistributionTest, RejectsOutOfRange) {
  for (const char* text :
       {"zipf", "zipf:", "zipf:1", "zipf:0", "zipf:-2", "zipf:x", "pareto:1",
        "pareto:0", "pareto:1.5", "normal:0", "normal:101", "gauss",
        "uniform:3", "", "zipf:nan", "zipf:inf"}) {
    const Result<Distribution> result = ParseDistribution(text);
    ASSERT_FALSE(result.ok()) << "accepted: " << text;
    EXPECT_NE(result.error().message.find('"' + std::string(text) + '"'),
              std::string::npos)
        << result.error().message;
    EXPECT_NE(result.error().hint.find("zipf:1.2"), std::string::npos);
  }
}

TEST(ParseDataPatternTest, Patterns) {
  EXPECT_EQ(ParseDataPattern("random")->kind, DataKind::kRandom);
  EXPECT_EQ(ParseDataPattern("zero")->kind, DataKind::kZero);
  const DataPattern half = *ParseDataPattern("compressible:50");
  EXPECT_EQ(half.kind, DataKind::kCompressible);
  EXPECT_EQ(half.compressible_percent, 50);
  EXPECT_EQ(ParseDataPattern("compressible:0")->compressible_percent, 0);
  EXPECT_EQ(ParseDataPattern("compressible:100")->compressible_percent, 100);
  EXPECT_EQ(ParseDataPattern("compressible:25%")->compressible_percent, 25);
  for (const char* text : {"compressible", "compressible:101",
                           "compressible:-1", "compressible:x", "ones", ""}) {
    const Result<DataPattern> result = ParseDataPattern(text);
    ASSERT_FALSE(result.ok()) << "accepted: " << text;
    EXPECT_NE(result.error().hint.find("compressible:50"), std::string::npos);
  }
}

TEST(ParseFsyncModeTest, Modes) {
  EXPECT_EQ(*ParseFsyncMode("fsync"), FsyncMode::kFsync);
  EXPECT_EQ(*ParseFsyncMode("fdatasync"), FsyncMode::kFdatasync);
  const Result<FsyncMode> bad = ParseFsyncMode("sync");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "unknown fsync mode \"sync\"");
  EXPECT_EQ(bad.error().hint, "fsync modes: fsync fdatasync");
}

TEST(JobSpecTest, ModePredicates) {
  EXPECT_TRUE(IsRead(IoMode::kRndRd));
  EXPECT_TRUE(IsRead(IoMode::kSeqRd));
  EXPECT_FALSE(IsRead(IoMode::kRndRw));
  EXPECT_FALSE(IsRead(IoMode::kSeqRewr));
  EXPECT_TRUE(IsWrite(IoMode::kRndWr));
  EXPECT_TRUE(IsWrite(IoMode::kSeqWr));
  EXPECT_TRUE(IsWrite(IoMode::kSeqRewr));
  EXPECT_FALSE(IsWrite(IoMode::kRndRw));
  EXPECT_FALSE(IsWrite(IoMode::kRndRd));
  EXPECT_TRUE(Writes(IoMode::kRndRw));
  EXPECT_TRUE(Writes(IoMode::kSeqRewr));
  EXPECT_FALSE(Writes(IoMode::kSeqRd));
  EXPECT_EQ(PatternOf(IoMode::kRndRw), AccessPattern::kRandom);
  EXPECT_EQ(PatternOf(IoMode::kSeqRewr), AccessPattern::kSequential);
  EXPECT_EQ(PatternOf(IoMode::kSeqRd), AccessPattern::kSequential);
}

TEST(JobSpecTest, ModeNamesRoundTrip) {
  EXPECT_EQ(ModeName(IoMode::kRndWr), "rndwr");
  EXPECT_EQ(ModeName(IoMode::kSeqRewr), "seqrewr");
  for (IoMode mode : kAllModes) {
    EXPECT_EQ(*ParseMode(ModeName(mode)), mode) << ModeName(mode);
  }
}

TEST(JobSpecTest, BlockSizesText) {
  EXPECT_EQ(BlockSizesText({{16384, 100}}), "16KiB");
  EXPECT_EQ(BlockSizesText({{4096, 60}, {65536, 40}}), "4KiB/60:64KiB/40");
  EXPECT_EQ(BlockSizesText({{1048576, 100}}), "1MiB");
  EXPECT_EQ(BlockSizesText({{1536 * 1024, 100}}), "1536KiB");
  EXPECT_EQ(BlockSizesText({{512, 100}}), "512");
  EXPECT_EQ(BlockSizesText({{1536, 50}, {4096, 50}}), "1536/50:4KiB/50");
  for (const char* text : {"16k", "4k/60:64k/40", "512/10:1536/20:64M/70"}) {
    const Mix mix = *ParseBlockSizeMix(text);
    EXPECT_EQ(MixPairs(*ParseBlockSizeMix(BlockSizesText(mix))), MixPairs(mix))
        << text;
  }
}

TEST(JobSpecTest, DataAndDistributionText) {
  EXPECT_EQ(DataPatternText({DataKind::kRandom, 0}),
            "random (refreshed per write)");
  EXPECT_EQ(DataPatternText({DataKind::kZero, 0}), "zero");
  EXPECT_EQ(DataPatternText({DataKind::kCompressible, 50}),
            "compressible 50 %");
  EXPECT_EQ(DistributionText({DistributionKind::kUniform, 0, {}}), "uniform");
  EXPECT_EQ(DistributionText({DistributionKind::kZipf, 1.2, {}}), "zipf:1.2");
  EXPECT_EQ(DistributionText({DistributionKind::kPareto, 0.9, {}}),
            "pareto:0.9");
  EXPECT_EQ(DistributionText({DistributionKind::kNormal, 10, {}}), "normal:10");
  for (const char* text :
       {"uniform", "zipf:1.2", "pareto:0.9", "normal:12.5"}) {
    EXPECT_EQ(DistributionText(*ParseDistribution(text)), text);
  }
}

TEST(JobSpecTest, MinAndMaxBlockSize) {
  const Mix mix = {{65536, 10}, {4096, 50}, {1048576, 40}};
  EXPECT_EQ(MinBlockSize(mix), 4096u);
  EXPECT_EQ(MaxBlockSize(mix), 1048576u);
  EXPECT_EQ(MinBlockSize({{16384, 100}}), 16384u);
  EXPECT_EQ(MaxBlockSize({{16384, 100}}), 16384u);
  EXPECT_EQ(MinBlockSize({}), 0u);
  EXPECT_EQ(MaxBlockSize({}), 0u);
}

}  // namespace
}  // namespace flashmark
