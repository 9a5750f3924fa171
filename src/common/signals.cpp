#include "common/signals.h"

#include <pthread.h>

#include <cerrno>
#include <ctime>

namespace flashmark {

sigset_t InterruptSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

void BlockInterruptSignals() {
  const sigset_t set = InterruptSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void IgnoreBrokenPipe() { signal(SIGPIPE, SIG_IGN); }

void DefaultSignalsForChild() {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  signal(SIGPIPE, SIG_DFL);
}

int WaitForInterrupt(uint64_t timeout_ns) {
  const sigset_t set = InterruptSignals();
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
