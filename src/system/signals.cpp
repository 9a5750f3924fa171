#include "system/signals.h"

#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <ctime>

namespace flashmark {
namespace {

sigset_t InterruptSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

void BlockInterruptSignals() {
  const sigset_t set = InterruptSet();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int WaitForInterrupt(uint64_t timeout_ns) {
  const sigset_t set = InterruptSet();
  timespec timeout{static_cast<time_t>(timeout_ns / 1000000000ull),
                   static_cast<long>(timeout_ns % 1000000000ull)};
  for (;;) {
    const int taken = sigtimedwait(&set, nullptr, &timeout);
    if (taken > 0) return taken;
    if (errno == EAGAIN) return 0;
    if (errno != EINTR) return 0;
  }
}

}  // namespace flashmark
