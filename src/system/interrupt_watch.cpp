#include "system/interrupt_watch.h"

#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace flashmark {

InterruptWatch::InterruptWatch() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC);
  stop_fd_ = eventfd(0, EFD_CLOEXEC);
  if (signal_fd_ < 0 || stop_fd_ < 0) return;  // unwatched: never set
  thread_ = std::thread([this] { Watch(); });
}

InterruptWatch::~InterruptWatch() {
  if (thread_.joinable()) {
    const uint64_t one = 1;
    while (write(stop_fd_, &one, sizeof one) < 0 && errno == EINTR) {
    }
    thread_.join();
  }
  if (signal_fd_ >= 0) close(signal_fd_);
  if (stop_fd_ >= 0) close(stop_fd_);
}

void InterruptWatch::Watch() {
  pollfd fds[2] = {{signal_fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    if (fds[0].revents != 0) {
      signalfd_siginfo info;
      const ssize_t got = read(signal_fd_, &info, sizeof info);
      if (got == sizeof info) {
        interrupted_.store(true);
        return;
      }
      if (got < 0 && errno != EINTR && errno != EAGAIN) return;
    }
  }
}

}  // namespace flashmark
