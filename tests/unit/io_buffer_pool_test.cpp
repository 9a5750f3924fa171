#include "runner/io_buffer_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "common/sysfs_text.h"

namespace flashmark {
namespace {

constexpr size_t kHugePage = 2u << 20;

void Touch(const IoBufferPool& pool) {
  for (size_t i = 0; i < pool.count(); ++i) {
    std::memset(pool.buffer(i), static_cast<int>(i + 1), pool.buffer_bytes());
  }
}

TEST(IoBufferPool, BuffersAreAlignedRoundedAndDoNotOverlap) {
  auto pool = IoBufferPool::Create(5, 6000, /*huge_pages=*/false);
  ASSERT_TRUE(pool.ok()) << pool.error().message;
  EXPECT_EQ(pool->count(), 5u);
  EXPECT_EQ(pool->buffer_bytes(), 8192u);  // 6000 rounded up to 4096s
  Touch(*pool);
  for (size_t i = 0; i < pool->count(); ++i) {
    const auto* bytes = static_cast<const unsigned char*>(pool->buffer(i));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(bytes) % 4096, 0u);
    // Each buffer still holds what was written to it, first to last byte.
    EXPECT_EQ(bytes[0], i + 1);
    EXPECT_EQ(bytes[pool->buffer_bytes() - 1], i + 1);
  }
}

TEST(IoBufferPool, TheTransparentHugePageModeIsTheKernelsBracketedChoice) {
  const std::string line =
      ReadSysfsLine("/sys/kernel/mm/transparent_hugepage/enabled");
  const std::string mode = IoBufferPool::TransparentHugePagesMode();
  if (line.empty()) {
    EXPECT_EQ(mode, "");
    EXPECT_FALSE(IoBufferPool::TransparentHugePagesUsable());
    return;
  }
  // e.g. "always [madvise] never"
  EXPECT_NE(line.find("[" + mode + "]"), std::string::npos) << line;
  EXPECT_TRUE(mode == "always" || mode == "madvise" || mode == "never") << mode;
  EXPECT_EQ(IoBufferPool::TransparentHugePagesUsable(), mode != "never");
}

TEST(IoBufferPool, APoolOfHugePagesStartsOnAHugePageAndGetsThem) {
  if (!IoBufferPool::TransparentHugePagesUsable()) {
    GTEST_SKIP() << "transparent huge pages are off here "
                    "(/sys/kernel/mm/transparent_hugepage/enabled)";
  }
  auto pool = IoBufferPool::Create(8, 1u << 20, /*huge_pages=*/true);
  ASSERT_TRUE(pool.ok()) << pool.error().message;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(pool->buffer(0)) % kHugePage, 0u);
  Touch(*pool);
  // 8 MiB on 2 MiB boundaries: the kernel backs it with huge pages where
  // it has them free (it compacts memory for a madvise()d area first).
  EXPECT_GE(pool->HugeBytes(), kHugePage);
  // One buffer of 1 MiB is worth a huge page: it is then one piece.
  auto one = IoBufferPool::Create(1, 1u << 20, /*huge_pages=*/true);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(one->buffer(0)) % kHugePage, 0u);
  Touch(*one);
  EXPECT_EQ(one->HugeBytes(), kHugePage);
}

TEST(IoBufferPool, OrdinaryPagesWhenAskedOrWhenThePoolIsSmall) {
  auto asked = IoBufferPool::Create(8, 1u << 20, /*huge_pages=*/false);
  auto small = IoBufferPool::Create(32, 4096, /*huge_pages=*/true);
  // One 16 KiB buffer (a psync worker's): not 2 MiB for each of 4096.
  auto single = IoBufferPool::Create(1, 16384, /*huge_pages=*/true);
  ASSERT_TRUE(single.ok());
  Touch(*single);
  EXPECT_EQ(single->HugeBytes(), 0u);
  ASSERT_TRUE(asked.ok());
  ASSERT_TRUE(small.ok());
  Touch(*asked);
  Touch(*small);
  EXPECT_EQ(asked->HugeBytes(), 0u);
  EXPECT_EQ(small->HugeBytes(), 0u);
}

TEST(IoBufferPool, MovingHandsTheMappingOver) {
  auto pool = IoBufferPool::Create(2, 4096, /*huge_pages=*/false);
  ASSERT_TRUE(pool.ok());
  IoBufferPool first = std::move(pool.value());
  void* buffer = first.buffer(1);
  IoBufferPool second;
  second = std::move(first);
  EXPECT_EQ(second.buffer(1), buffer);
  EXPECT_EQ(first.count(), 0u);  // NOLINT(bugprone-use-after-move)
  std::memset(second.buffer(1), 7, second.buffer_bytes());
}

}  // namespace
}  // namespace flashmark
