#include "workload/generation_map.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "runner/block_audit.h"
#include "workload/block_header.h"

namespace flashmark {
namespace {

constexpr uint32_t kMapBlock = 4096;

TEST(GenerationMapTest, FilesAreTrackedInWholeBlocks) {
  GenerationMap map(kMapBlock, {3 * kMapBlock + 100, 2 * kMapBlock});
  EXPECT_EQ(map.BlocksOf(0), 3u);
  EXPECT_EQ(map.BlocksOf(1), 2u);
  EXPECT_EQ(map.block_count(), 5u);
}

TEST(GenerationMapTest, AWriteAdvancesEachBlockOnceItCompletes) {
  GenerationMap map(kMapBlock, {4 * kMapBlock});
  uint32_t before[2];
  ASSERT_TRUE(map.Claim(0, kMapBlock, 2 * kMapBlock, before));
  EXPECT_EQ(before[0], 0u);
  uint32_t states[4];
  map.Snapshot(0, 0, 4 * kMapBlock, states);
  EXPECT_FALSE(GenerationMap::Checkable(states[1]));  // busy
  map.Finish(0, kMapBlock, 2 * kMapBlock, true);
  map.Snapshot(0, 0, 4 * kMapBlock, states);
  EXPECT_EQ(states[0], 0u);
  EXPECT_EQ(states[1], 1u);
  EXPECT_EQ(states[2], 1u);
  EXPECT_TRUE(GenerationMap::Checkable(states[1]));
  ASSERT_TRUE(map.Claim(0, kMapBlock, kMapBlock, before));
  map.Finish(0, kMapBlock, kMapBlock, true);
  map.Snapshot(0, kMapBlock, kMapBlock, states);
  EXPECT_EQ(states[0], 2u);
}

TEST(GenerationMapTest, AClaimMeetingABusyBlockClaimsNothing) {
  GenerationMap map(kMapBlock, {4 * kMapBlock});
  uint32_t first[1], second[3];
  ASSERT_TRUE(map.Claim(0, 2 * kMapBlock, kMapBlock, first));
  EXPECT_FALSE(map.Claim(0, 0, 3 * kMapBlock, second));
  uint32_t states[4];
  map.Snapshot(0, 0, 4 * kMapBlock, states);
  EXPECT_EQ(states[0], 0u);  // rolled back
  EXPECT_EQ(states[1], 0u);
  map.Abandon(0, 2 * kMapBlock, kMapBlock, first);
  map.Snapshot(0, 0, 4 * kMapBlock, states);
  EXPECT_EQ(states[2], 0u);
  EXPECT_TRUE(map.Claim(0, 0, 3 * kMapBlock, second));
}

TEST(GenerationMapTest, AFailedWriteLeavesTheBlocksUncertain) {
  GenerationMap map(kMapBlock, {kMapBlock});
  uint32_t before[1];
  ASSERT_TRUE(map.Claim(0, 0, kMapBlock, before));
  map.Finish(0, 0, kMapBlock, false);
  uint32_t state;
  map.Snapshot(0, 0, kMapBlock, &state);
  EXPECT_FALSE(GenerationMap::Checkable(state));
  ASSERT_TRUE(map.Claim(0, 0, kMapBlock, before));
  map.Finish(0, 0, kMapBlock, true);
  map.Snapshot(0, 0, kMapBlock, &state);
  EXPECT_TRUE(GenerationMap::Checkable(state));
  EXPECT_EQ(GenerationMap::Generation(state), 2u);
}

TEST(GenerationMapTest, ExportAndImportRoundTrip) {
  GenerationMap map(kMapBlock, {2 * kMapBlock, kMapBlock});
  uint32_t before[1];
  ASSERT_TRUE(map.Claim(1, 0, kMapBlock, before));
  map.Finish(1, 0, kMapBlock, true);
  GenerationMap copy(kMapBlock, {2 * kMapBlock, kMapBlock});
  copy.Import(map.Export());
  EXPECT_EQ(copy.Export(), map.Export());
  EXPECT_EQ(copy.Export()[2], 1u);
}

TEST(GenerationMapTest, ConcurrentWritersNeverShareABlock) {
  GenerationMap map(kMapBlock, {8 * kMapBlock});
  constexpr int kRounds = 20000;
  std::vector<std::thread> threads;
  std::vector<int> completed(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&map, &completed, t] {
      uint32_t before[2];
      for (int i = 0; i < kRounds; ++i) {
        const uint64_t offset = ((i + t) % 7) * kMapBlock;
        if (!map.Claim(0, offset, 2 * kMapBlock, before)) continue;
        map.Finish(0, offset, 2 * kMapBlock, true);
        ++completed[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  uint64_t claimed_blocks = 0;
  for (int t = 0; t < 4; ++t) claimed_blocks += 2 * completed[t];
  uint64_t generations = 0;
  for (uint32_t state : map.Export()) {
    EXPECT_EQ(state & GenerationMap::kBusy, 0u);
    generations += GenerationMap::Generation(state);
  }
  EXPECT_EQ(generations, claimed_blocks);  // every claim advanced once
}

// AuditBlocks over a buffer of four blocks: good, torn, misdirected, stale.
TEST(BlockAuditTest, ClassifiesAndLocatesEachBadBlock) {
  std::vector<std::byte> data(4 * kMapBlock);
  auto block = [&data](int i) {
    return std::span(data.data() + i * kMapBlock, kMapBlock);
  };
  const uint64_t base = 8 * kMapBlock;
  StampBlock(block(0), BlockStamp{base, 0, 3, 9});
  StampBlock(block(1), BlockStamp{base + kMapBlock, 0, 3, 9});
  block(1)[100] ^= std::byte{0xff};
  StampBlock(block(2), BlockStamp{base + 5 * kMapBlock, 1, 2, 9});
  StampBlock(block(3), BlockStamp{base + 3 * kMapBlock, 0, 2, 9});
  const uint32_t states[4] = {3, 3, 3, 3};
  const std::vector<IoFile> files = {{-1, 0, "f0"}, {-1, 0, "f1"}};
  MismatchLog log;
  const VerifyCounts counts =
      AuditBlocks(AuditContext{files, &log, true}, kMapBlock, data.data(), 0,
                  base, data.size(), data.size(), states);
  EXPECT_EQ(counts.checked, 4u);
  EXPECT_EQ(counts.torn, 1u);
  EXPECT_EQ(counts.misdirected, 1u);
  EXPECT_EQ(counts.lost, 1u);
  VerifyOutcome outcome;
  log.MoveInto(outcome);
  ASSERT_EQ(outcome.mismatches.size(), 3u);
  EXPECT_EQ(outcome.mismatches[0].fault, VerifyFault::kTorn);
  EXPECT_EQ(outcome.mismatches[0].offset, base + kMapBlock);
  EXPECT_EQ(outcome.mismatches[1].fault, VerifyFault::kMisdirected);
  EXPECT_EQ(outcome.mismatches[1].offset, base + 2 * kMapBlock);
  EXPECT_EQ(outcome.mismatches[1].found_path, "f1");
  EXPECT_EQ(outcome.mismatches[1].found_offset, base + 5 * kMapBlock);
  EXPECT_EQ(outcome.mismatches[2].fault, VerifyFault::kLost);
  EXPECT_EQ(outcome.mismatches[2].found_generation, 2u);
  EXPECT_TRUE(outcome.mismatches[2].read_back);
}

TEST(BlockAuditTest, SkipsUnwrittenAndUncertainBlocksAndLosesTruncatedOnes) {
  std::vector<std::byte> data(3 * kMapBlock);
  const uint32_t states[3] = {0, 1 | GenerationMap::kUncertain, 1};
  MismatchLog log;
  const VerifyCounts counts =
      AuditBlocks(AuditContext{{}, &log, false}, kMapBlock, data.data(), 0, 0,
                  data.size(), 2 * kMapBlock + 10, states);
  EXPECT_EQ(counts.checked, 1u);
  EXPECT_EQ(counts.lost, 1u);
  VerifyOutcome outcome;
  log.MoveInto(outcome);
  ASSERT_EQ(outcome.mismatches.size(), 1u);
  EXPECT_TRUE(outcome.mismatches[0].beyond_end);
  EXPECT_EQ(outcome.mismatches[0].file_size, 2 * kMapBlock + 10);
  EXPECT_EQ(outcome.mismatches[0].offset, 2 * kMapBlock);
}

TEST(BlockAuditTest, TheLogKeepsTheFirstDistinctOnesAndCountsTheRest) {
  MismatchLog log(2);
  VerifyMismatch mismatch;
  log.Add(mismatch);
  log.Add(mismatch);  // the same block read bad again: listed once
  for (uint64_t i = 1; i < 5; ++i) {
    mismatch.offset = i * kMapBlock;
    log.Add(mismatch);
  }
  VerifyOutcome outcome;
  log.MoveInto(outcome);
  ASSERT_EQ(outcome.mismatches.size(), 2u);
  EXPECT_EQ(outcome.mismatches[1].offset, kMapBlock);
  EXPECT_EQ(outcome.mismatches_not_listed, 3u);
}

}  // namespace
}  // namespace flashmark
