#include "workload/generation_map.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "runner/block_audit.h"
#include "workload/block_header.h"

namespace flashmark {
namespace {

constexpr uint32_t kBlock = 4096;

TEST(GenerationMapTest, FilesAreTrackedInWholeBlocks) {
  GenerationMap map(kBlock, {3 * kBlock + 100, 2 * kBlock});
  EXPECT_EQ(map.BlocksOf(0), 3u);
  EXPECT_EQ(map.BlocksOf(1), 2u);
  EXPECT_EQ(map.block_count(), 5u);
}

TEST(GenerationMapTest, AWriteAdvancesEachBlockOnceItCompletes) {
  GenerationMap map(kBlock, {4 * kBlock});
  uint32_t before[2];
  ASSERT_TRUE(map.Claim(0, kBlock, 2 * kBlock, before));
  EXPECT_EQ(before[0], 0u);
  uint32_t states[4];
  map.Snapshot(0, 0, 4 * kBlock, states);
  EXPECT_FALSE(GenerationMap::Checkable(states[1]));  // busy
  map.Finish(0, kBlock, 2 * kBlock, true);
  map.Snapshot(0, 0, 4 * kBlock, states);
  EXPECT_EQ(states[0], 0u);
  EXPECT_EQ(states[1], 1u);
  EXPECT_EQ(states[2], 1u);
  EXPECT_TRUE(GenerationMap::Checkable(states[1]));
  ASSERT_TRUE(map.Claim(0, kBlock, kBlock, before));
  map.Finish(0, kBlock, kBlock, true);
  map.Snapshot(0, kBlock, kBlock, states);
  EXPECT_EQ(states[0], 2u);
}

TEST(GenerationMapTest, AClaimMeetingABusyBlockClaimsNothing) {
  GenerationMap map(kBlock, {4 * kBlock});
  uint32_t first[1], second[3];
  ASSERT_TRUE(map.Claim(0, 2 * kBlock, kBlock, first));
  EXPECT_FALSE(map.Claim(0, 0, 3 * kBlock, second));
  uint32_t states[4];
  map.Snapshot(0, 0, 4 * kBlock, states);
  EXPECT_EQ(states[0], 0u);  // rolled back
  EXPECT_EQ(states[1], 0u);
  map.Abandon(0, 2 * kBlock, kBlock, first);
  map.Snapshot(0, 0, 4 * kBlock, states);
  EXPECT_EQ(states[2], 0u);
  EXPECT_TRUE(map.Claim(0, 0, 3 * kBlock, second));
}

TEST(GenerationMapTest, AFailedWriteLeavesTheBlocksUncertain) {
  GenerationMap map(kBlock, {kBlock});
  uint32_t before[1];
  ASSERT_TRUE(map.Claim(0, 0, kBlock, before));
  map.Finish(0, 0, kBlock, false);
  uint32_t state;
  map.Snapshot(0, 0, kBlock, &state);
  EXPECT_FALSE(GenerationMap::Checkable(state));
  ASSERT_TRUE(map.Claim(0, 0, kBlock, before));
  map.Finish(0, 0, kBlock, true);
  map.Snapshot(0, 0, kBlock, &state);
  EXPECT_TRUE(GenerationMap::Checkable(state));
  EXPECT_EQ(GenerationMap::Generation(state), 2u);
}

TEST(GenerationMapTest, ExportAndImportRoundTrip) {
  GenerationMap map(kBlock, {2 * kBlock, kBlock});
  uint32_t before[1];
  ASSERT_TRUE(map.Claim(1, 0, kBlock, before));
  map.Finish(1, 0, kBlock, true);
  GenerationMap copy(kBlock, {2 * kBlock, kBlock});
  copy.Import(map.Export());
  EXPECT_EQ(copy.Export(), map.Export());
  EXPECT_EQ(copy.Export()[2], 1u);
}

TEST(GenerationMapTest, ConcurrentWritersNeverShareABlock) {
  GenerationMap map(kBlock, {8 * kBlock});
  constexpr int kRounds = 20000;
  std::vector<std::thread> threads;
  std::vector<int> completed(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&map, &completed, t] {
      uint32_t before[2];
      for (int i = 0; i < kRounds; ++i) {
        const uint64_t offset = ((i + t) % 7) * kBlock;
        if (!map.Claim(0, offset, 2 * kBlock, before)) continue;
        map.Finish(0, offset, 2 * kBlock, true);
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
  std::vector<std::byte> data(4 * kBlock);
  auto block = [&data](int i) {
    return std::span(data.data() + i * kBlock, kBlock);
  };
  const uint64_t base = 8 * kBlock;
  StampBlock(block(0), BlockStamp{base, 0, 3, 9});
  StampBlock(block(1), BlockStamp{base + kBlock, 0, 3, 9});
  block(1)[100] ^= std::byte{0xff};
  StampBlock(block(2), BlockStamp{base + 5 * kBlock, 1, 2, 9});
  StampBlock(block(3), BlockStamp{base + 3 * kBlock, 0, 2, 9});
  const uint32_t states[4] = {3, 3, 3, 3};
  const std::vector<IoFile> files = {{-1, 0, "f0"}, {-1, 0, "f1"}};
  MismatchLog log;
  const VerifyCounts counts =
      AuditBlocks(AuditContext{files, &log, true}, kBlock, data.data(), 0, base,
                  data.size(), data.size(), states);
  EXPECT_EQ(counts.checked, 4u);
  EXPECT_EQ(counts.torn, 1u);
  EXPECT_EQ(counts.misdirected, 1u);
  EXPECT_EQ(counts.lost, 1u);
  VerifyOutcome outcome;
  log.MoveInto(outcome);
  ASSERT_EQ(outcome.mismatches.size(), 3u);
  EXPECT_EQ(outcome.mismatches[0].fault, VerifyFault::kTorn);
  EXPECT_EQ(outcome.mismatches[0].offset, base + kBlock);
  EXPECT_EQ(outcome.mismatches[1].fault, VerifyFault::kMisdirected);
  EXPECT_EQ(outcome.mismatches[1].offset, base + 2 * kBlock);
  EXPECT_EQ(outcome.mismatches[1].found_path, "f1");
  EXPECT_EQ(outcome.mismatches[1].found_offset, base + 5 * kBlock);
  EXPECT_EQ(outcome.mismatches[2].fault, VerifyFault::kLost);
  EXPECT_EQ(outcome.mismatches[2].found_generation, 2u);
  EXPECT_TRUE(outcome.mismatches[2].read_back);
}

TEST(BlockAuditTest, SkipsUnwrittenAndUncertainBlocksAndLosesTruncatedOnes) {
  std::vector<std::byte> data(3 * kBlock);
  const uint32_t states[3] = {0, 1 | GenerationMap::kUncertain, 1};
  MismatchLog log;
  const VerifyCounts counts =
      AuditBlocks(AuditContext{{}, &log, false}, kBlock, data.data(), 0, 0,
                  data.size(), 2 * kBlock + 10, states);
  EXPECT_EQ(counts.checked, 1u);
  EXPECT_EQ(counts.lost, 1u);
  VerifyOutcome outcome;
  log.MoveInto(outcome);
  ASSERT_EQ(outcome.mismatches.size(), 1u);
  EXPECT_TRUE(outcome.mismatches[0].beyond_end);
  EXPECT_EQ(outcome.mismatches[0].file_size, 2 * kBlock + 10);
  EXPECT_EQ(outcome.mismatches[0].offset, 2 * kBlock);
}

TEST(BlockAuditTest, TheLogKeepsTheFirstDistinctOnesAndCountsTheRest) {
  MismatchLog log(2);
  VerifyMismatch mismatch;
  log.Add(mismatch);
  log.Add(mismatch);  // the same block read bad again: listed once
  for (uint64_t i = 1; i < 5; ++i) {
    mismatch.offset = i * kBlock;
    log.Add(mismatch);
  }
  VerifyOutcome outcome;
  log.MoveInto(outcome);
  ASSERT_EQ(outcome.mismatches.size(), 2u);
  EXPECT_EQ(outcome.mismatches[1].offset, kBlock);
  EXPECT_EQ(outcome.mismatches_not_listed, 3u);
}

}  // namespace
}  // namespace flashmark
