#include "model/io_log.h"

#include <gtest/gtest.h>

#include <thread>

namespace flashmark {
namespace {

TEST(IoLog, DrainsWhatWasPushedInOrderOnce) {
  IoLog log(8);
  for (uint32_t k = 0; k < 5; ++k) log.Push({k, k + 1, 4096ull * k, 0, 4096});
  std::vector<uint64_t> seen;
  EXPECT_EQ(log.Drain([&](const LoggedIo& io) { seen.push_back(io.offset); }),
            5u);
  EXPECT_EQ(seen, (std::vector<uint64_t>{0, 4096, 8192, 12288, 16384}));
  EXPECT_EQ(log.Drain([](const LoggedIo&) {}), 0u);
}

TEST(IoLog, AFullLogDropsAndCountsWhatDoesNotFit) {
  IoLog log(4);
  for (uint32_t k = 0; k < 6; ++k) log.Push({k, k, k, 0, 512});
  EXPECT_EQ(log.dropped(), 2u);
  std::vector<uint64_t> seen;
  log.Drain([&](const LoggedIo& io) { seen.push_back(io.offset); });
  EXPECT_EQ(seen, (std::vector<uint64_t>{0, 1, 2, 3})) << "the oldest kept";
  log.Push({9, 9, 9, 0, 512});
  EXPECT_EQ(log.Drain([](const LoggedIo&) {}), 1u) << "room again";
}

TEST(IoLog, AProducerAndAConsumerAtOnceLoseNothingUncounted) {
  IoLog log(64);
  constexpr uint64_t kPushes = 200'000;
  std::thread producer([&] {
    for (uint64_t k = 0; k < kPushes; ++k) log.Push({k, k, k, 0, 512});
  });
  uint64_t received = 0, last = 0;
  bool ordered = true;
  const auto take = [&](const LoggedIo& io) {
    ordered = ordered && (received == 0 || io.offset > last);
    last = io.offset;
    ++received;
  };
  while (received + log.dropped() < kPushes) log.Drain(take);
  producer.join();
  log.Drain(take);
  EXPECT_TRUE(ordered);
  EXPECT_EQ(received + log.dropped(), kPushes);
}

}  // namespace
}  // namespace flashmark
