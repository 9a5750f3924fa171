#include "workload/block_header.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace flashmark {
namespace {

constexpr uint32_t kHeaderBlock = 4096;

std::vector<std::byte> Payload(uint32_t length, unsigned seed) {
  std::vector<std::byte> block(length);
  for (uint32_t i = 0; i < length; ++i) {
    block[i] = static_cast<std::byte>((i * 131 + seed * 7) & 0xff);
  }
  return block;
}

std::vector<std::byte> Stamped(uint32_t file, uint64_t offset,
                               uint32_t generation,
                               uint32_t length = kHeaderBlock) {
  std::vector<std::byte> block = Payload(length, generation);
  StampBlock(block, BlockStamp{offset, file, generation, 42});
  return block;
}

TEST(BlockHeaderTest, AStampedBlockChecksGoodAndReadsBackItsStamp) {
  const auto block = Stamped(3, 65536, 7);
  const BlockCheck check = CheckBlock(block, 3, 65536, 7);
  EXPECT_EQ(check.state, BlockState::kGood);
  EXPECT_EQ(check.found.file, 3u);
  EXPECT_EQ(check.found.offset, 65536u);
  EXPECT_EQ(check.found.generation, 7u);
  EXPECT_EQ(check.found.seed, 42u);
}

TEST(BlockHeaderTest, PayloadBeyondTheHeaderIsKept) {
  auto block = Payload(kHeaderBlock, 1);
  const auto original = block;
  StampBlock(block, BlockStamp{0, 0, 1, 1});
  EXPECT_TRUE(std::equal(block.begin() + kBlockHeaderBytes, block.end(),
                         original.begin() + kBlockHeaderBytes));
}

TEST(BlockHeaderTest, AnyFlippedByteAfterTheMagicIsTorn) {
  for (uint32_t at : {8u, 16u, 24u, 40u, 47u, 48u, 2048u, kHeaderBlock - 1}) {
    auto block = Stamped(0, 0, 1);
    block[at] ^= std::byte{0x01};
    EXPECT_EQ(CheckBlock(block, 0, 0, 1).state, BlockState::kBadChecksum)
        << "byte " << at;
  }
}

TEST(BlockHeaderTest, HalfOldHalfNewIsTorn) {
  auto old_block = Stamped(0, 8192, 1);
  auto new_block = Stamped(0, 8192, 2);
  std::memcpy(new_block.data() + kHeaderBlock / 2,
              old_block.data() + kHeaderBlock / 2, kHeaderBlock / 2);
  EXPECT_EQ(CheckBlock(new_block, 0, 8192, 2).state, BlockState::kBadChecksum);
}

TEST(BlockHeaderTest, NoMagicIsNoHeader) {
  const auto unstamped = Payload(kHeaderBlock, 3);
  EXPECT_EQ(CheckBlock(unstamped, 0, 0, 1).state, BlockState::kNoHeader);
  const std::vector<std::byte> zeros(kHeaderBlock);
  EXPECT_EQ(CheckBlock(zeros, 0, 0, 1).state, BlockState::kNoHeader);
}

TEST(BlockHeaderTest, AnIntactBlockForAnotherPlaceIsWrongPlace) {
  const auto block = Stamped(1, 4096, 2);
  EXPECT_EQ(CheckBlock(block, 1, 8192, 2).state, BlockState::kWrongPlace);
  EXPECT_EQ(CheckBlock(block, 2, 4096, 2).state, BlockState::kWrongPlace);
}

TEST(BlockHeaderTest, GenerationsOlderOrNewerThanExpected) {
  const auto block = Stamped(0, 0, 5);
  EXPECT_EQ(CheckBlock(block, 0, 0, 6).state, BlockState::kStale);
  EXPECT_EQ(CheckBlock(block, 0, 0, 4).state, BlockState::kNewer);
}

TEST(BlockHeaderTest, ABlockReadWithAnotherLengthFailsTheChecksum) {
  const auto block = Stamped(0, 0, 1, 8192);
  EXPECT_EQ(CheckBlock(std::span(block).first(4096), 0, 0, 1).state,
            BlockState::kBadChecksum);
}

TEST(BlockHeaderTest, TheSmallestVerifyBlockWorks) {
  const auto block = Stamped(0, 512, 1, kMinVerifyBlockBytes);
  EXPECT_EQ(CheckBlock(block, 0, 512, 1).state, BlockState::kGood);
}

}  // namespace
}  // namespace flashmark
