// How long a real-time thread may spin before a deadline (the replay's
// timed submissions, runner/replay_worker.h). Sleeps wake microseconds
// late, so the last stretch before an IO is due is spun; but a thread at
// real-time priority that never sleeps is stopped by the kernel's
// real-time throttling (95 % of each second) for ~40 ms at a time.
// Spinning 100 us before every IO at 20k IOPS (one every 50 us) did: p99
// issue error 18-28 ms. So a spin is at most kMaxSpinNs, never longer than
// the wait, and paid from a budget earned at half the time that passes
// (kept up to kMaxBudgetNs): ~25 us a wait at 20k IOPS (p99 issue error
// 20-55 us, bench/replay-vs-fio.py), whole 100 us spins for sparse IOs (a
// database's commits). Units: ns on the caller's monotonic clock.
// Threading: one thread.
#pragma once

#include <algorithm>
#include <cstdint>

namespace flashmark {

class SpinBudget {
 public:
  static constexpr uint64_t kMaxSpinNs = 100'000;
  static constexpr uint64_t kMaxBudgetNs = 1'000'000;

  // The spin for a wait from `now_ns` until `deadline_ns`, paid at once.
  uint64_t Take(uint64_t now_ns, uint64_t deadline_ns) {
    budget_ns_ = std::min(kMaxBudgetNs, budget_ns_ + (now_ns - earned_ns_) / 2);
    earned_ns_ = now_ns;
    const uint64_t wait = deadline_ns > now_ns ? deadline_ns - now_ns : 0;
    const uint64_t spin = std::min({kMaxSpinNs, budget_ns_, wait});
    budget_ns_ -= spin;
    return spin;
  }

 private:
  uint64_t budget_ns_ = 0;
  uint64_t earned_ns_ = 0;
};

}  // namespace flashmark
