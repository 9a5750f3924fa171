// Cooperative cancellation of long analyses. A CancelToken reads a flag
// that another thread sets (the application's interrupt watch, on SIGINT or
// SIGTERM); computations that take one poll it every few thousand steps
// and return early. What they return once cancelled is incomplete: callers
// check cancelled() and discard it, or return InterruptedError(). The
// default token is never cancelled. Copyable; the flag must outlive every
// copy. Thread-safe (relaxed atomic reads: cancellation is a request, not
// a synchronisation).
#pragma once

#include <atomic>

#include "common/result.h"

namespace flashmark {

class CancelToken {
 public:
  CancelToken() = default;
  explicit CancelToken(const std::atomic<bool>* flag) : flag_(flag) {}

  bool cancelled() const {
    return flag_ != nullptr && flag_->load(std::memory_order_relaxed);
  }

 private:
  const std::atomic<bool>* flag_ = nullptr;
};

// What a cancelled command ends with: exit status 130, the shell's status
// for a command stopped by SIGINT (also used for SIGTERM).
inline Error InterruptedError() {
  return Error{"interrupted (SIGINT or SIGTERM)", {}, 130};
}

}  // namespace flashmark
