// SpinBudget (runner/spin_budget.h): a timed replay's spins before its
// IOs stay a fraction of the time that passes, so that its real-time
// thread always sleeps (the kernel's throttling stopped one that spun 100
// us before each IO at 20k IOPS), while sparse IOs get whole spins.
#include "runner/spin_budget.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace flashmark {
namespace {

constexpr uint64_t kUs = 1000;

// An IO every 50 us (20k IOPS) for a second, each wait from the last due
// time: the spins take half the time at most, never 100 us each.
TEST(SpinBudget, AtTwentyThousandIopsSpinsAtMostHalfTheTime) {
  SpinBudget budget;
  uint64_t spun = 0, longest = 0;
  const uint64_t start = 10'000'000 * kUs;
  uint64_t now = start;
  for (int io = 0; io < 20'000; ++io) {
    const uint64_t spin = budget.Take(now, now + 50 * kUs);
    spun += spin;
    longest = std::max(longest, spin);
    now += 50 * kUs;
  }
  const uint64_t elapsed = now - start;
  EXPECT_LE(spun, elapsed / 2 + SpinBudget::kMaxBudgetNs);
  EXPECT_GE(spun, elapsed / 2 - 50 * kUs);  // the budget is spent, not lost
  EXPECT_LE(longest, 50 * kUs);             // never longer than the wait
}

// A database's commits: a few IOs 40 us apart every 5 ms. Each wait is
// spun whole: the budget earned between commits pays for them.
TEST(SpinBudget, SparseIosAreSpunWhole) {
  SpinBudget budget;
  uint64_t now = 1'000'000 * kUs;
  for (int commit = 0; commit < 100; ++commit) {
    now += 5'000 * kUs;
    EXPECT_EQ(budget.Take(now - 5'000 * kUs, now), SpinBudget::kMaxSpinNs);
    for (int io = 0; io < 4; ++io) {
      EXPECT_EQ(budget.Take(now, now + 40 * kUs), 40 * kUs) << commit;
      now += 40 * kUs;
    }
  }
  // A deadline already passed: no spin.
  EXPECT_EQ(budget.Take(now, now - 1), 0u);
}

}  // namespace
}  // namespace flashmark
