#include "runner/sampler_priority.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>

namespace flashmark {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kRealTimeAllowed = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kRealTimeAllowed = false;
#else
constexpr bool kRealTimeAllowed = true;
#endif
#else
constexpr bool kRealTimeAllowed = true;
#endif

// On Linux, setpriority() on a thread id sets that thread's nice value.
int ThreadNice() {
  errno = 0;
  const int value = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  return errno == 0 ? value : 0;
}

bool SetThreadNice(int value) {
  return setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), value) == 0;
}

}  // namespace

SamplerPriority::SamplerPriority() : nice_(ThreadNice()) {
  sched_param param{};
  pthread_getschedparam(pthread_self(), &policy_, &param);
  priority_ = param.sched_priority;
  const sched_param fifo{.sched_priority = 1};
  if (kRealTimeAllowed &&
      pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo) == 0) {
    real_time_ = true;
    return;
  }
  // -20 needs CAP_SYS_NICE; without it RLIMIT_NICE (20 - rlim_cur) is the
  // floor, 20 (no change) when the limit is unset.
  rlimit limit{};
  const int floor = getrlimit(RLIMIT_NICE, &limit) == 0 &&
                            limit.rlim_cur != RLIM_INFINITY &&
                            limit.rlim_cur <= 40
                        ? 20 - static_cast<int>(limit.rlim_cur)
                        : -20;
  for (const int wanted : {-20, floor}) {
    if (wanted < nice_ && SetThreadNice(wanted)) {
      reniced_ = true;
      return;
    }
  }
}

SamplerPriority::~SamplerPriority() {
  if (real_time_) {
    const sched_param before{.sched_priority = priority_};
    pthread_setschedparam(pthread_self(), policy_, &before);
  }
  if (reniced_) SetThreadNice(nice_);
}

bool SamplerCanRunAhead() { return SamplerPriority().raised(); }

namespace {

constexpr int kWorkerNice = 19;  // the lowest

size_t UsableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return static_cast<size_t>(CPU_COUNT(&set));
}

}  // namespace

int WorkerNice(bool sampler_real_time, size_t workers) {
  return !sampler_real_time && workers > UsableCpus() ? kWorkerNice : 0;
}

std::optional<std::string> WorkerNiceWarning(size_t workers) {
  if (SamplerCanRunAhead() || WorkerNice(false, workers) == 0) {
    return std::nullopt;
  }
  return fmt::format(
      "the sampler cannot be given a higher priority here (no "
      "CAP_SYS_NICE, RLIMIT_RTPRIO or RLIMIT_NICE) and {} workers share {} "
      "CPUs: the workers run at nice {} so that it keeps its time, and any "
      "other busy process on this machine takes CPU from them first; give "
      "flashmark CAP_SYS_NICE (root; in a container, --cap-add SYS_NICE) or "
      "an RLIMIT_RTPRIO (`ulimit -r 1`)",
      workers, UsableCpus(), kWorkerNice);
}

}  // namespace flashmark
