#include "cluster/cluster_start.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cerrno>

#include "common/clock.h"
#include "common/host_identity.h"

namespace flashmark {
namespace {

constexpr int kClockRounds = 8;
// How far ahead rank 0 sets the common start: every rank must have the
// instant before it comes. With more ranks than cores and other work on
// the host (a loaded CI machine), a rank polling MPI at normal priority
// can wait tens of ms for a CPU; 20 ms was once too short there (a skew
// of 2 ms). 100 ms costs nothing worth measuring in a run.
constexpr int64_t kMinimumLeadNs = 100'000'000;

// Sleeps until the instant. When the ranks outnumber the cores, a plain
// timer wake-up lands late by a time slice (the woken rank waits for a
// CPU that an earlier rank already works on); where the process may (root,
// CAP_SYS_NICE, RLIMIT_RTPRIO), this thread waits at real-time priority,
// which takes a CPU at once, and returns to its own policy when the
// instant is read. Returns this rank's clock at the wake-up.
int64_t WakeAt(int64_t instant_ns) {
  int policy = 0;
  sched_param own{};
  pthread_getschedparam(pthread_self(), &policy, &own);
  sched_param realtime{};
  realtime.sched_priority = 1;
  const bool raised =
      pthread_setschedparam(pthread_self(), SCHED_FIFO, &realtime) == 0;
  const timespec at{static_cast<time_t>(instant_ns / 1000000000),
                    static_cast<long>(instant_ns % 1000000000)};
  while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, nullptr) ==
         EINTR) {
  }
  const int64_t woke = UnixNowNs();
  if (raised) pthread_setschedparam(pthread_self(), policy, &own);
  return woke;
}

// A refusal as it travels: "exit code \t message \t hint"; "" is ready.
std::string Encode(const Status& status) {
  if (status.ok()) return "";
  const Error& error = status.error();
  return fmt::format("{}\t{}\t{}", error.exit_code, error.message, error.hint);
}

Error Decode(const std::string& text) {
  const size_t first = text.find('\t');
  const size_t second = text.find('\t', first + 1);
  Error error;
  error.exit_code = std::atoi(text.substr(0, first).c_str());
  error.message = text.substr(first + 1, second - first - 1);
  error.hint = second == std::string::npos ? "" : text.substr(second + 1);
  return error;
}

}  // namespace

std::string RankName(int rank, const std::string& host) {
  return fmt::format("rank {} on {}", rank, host);
}

Status ClusterStart::Agree(const Status& mine) {
  if (failure_) return *failure_;
  const std::vector<std::string> all = session_.AllGather(Encode(mine));
  for (size_t r = 0; r < all.size(); ++r) {
    if (all[r].empty()) continue;
    if (static_cast<int>(r) == session_.rank()) {
      failure_ = mine.error();
    } else {
      Error error = Decode(all[r]);
      error.message =
          fmt::format("{}: {}; no rank started its IO",
                      RankName(static_cast<int>(r), hosts_[r]), error.message);
      failure_ = error;
    }
    return *failure_;
  }
  return OkStatus();
}

void ClusterStart::WaitForCommonStart() {
  const std::vector<std::string> boots = session_.AllGather(BootId());
  const auto offsets = session_.ClockOffsets(kClockRounds);
  std::vector<int64_t> my_offset, common_start;
  if (session_.rank() == 0) {
    int64_t slowest = 0;
    for (size_t r = 0; r < offsets.size(); ++r) {
      slowest = std::max(slowest, offsets[r].round_trip_ns);
      // A rank of rank 0's kernel reads rank 0's very clock: its offset is
      // 0, and a measured one would add only the error of the ping-pong
      // (up to half a round trip; ms when the ranks outnumber the cores
      // and poll MPI for a CPU).
      const bool same_clock = !boots[0].empty() && boots[r] == boots[0];
      my_offset.push_back(same_clock ? 0 : offsets[r].offset_ns);
    }
    // Far enough ahead that the scatter reaches everyone before it.
    common_start.assign(offsets.size(),
                        UnixNowNs() + std::max(kMinimumLeadNs, 20 * slowest));
  }
  const int64_t offset = session_.Scatter(my_offset);
  const int64_t start = session_.Scatter(common_start);
  common_start_ = start + offset;
  start_ = WakeAt(common_start_) - offset;
}

}  // namespace flashmark
