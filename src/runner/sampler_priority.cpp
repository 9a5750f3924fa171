#include "runner/sampler_priority.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>

namespace flashmark {
namespace {

// setpriority() on a thread id sets that thread's nice value only.
int ThreadNice() {
  errno = 0;
  const int value = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  return errno == 0 ? value : 0;
}

bool SetThreadNice(int value) {
  return setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), value) == 0;
}

}  // namespace

SamplerPriority::SamplerPriority() {
  sched_param param{};
  pthread_getschedparam(pthread_self(), &policy_, &param);
  priority_ = param.sched_priority;
  nice_ = ThreadNice();
  const sched_param fifo{.sched_priority = 1};
  if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo) == 0) {
    real_time_ = true;
    text_ = "SCHED_FIFO 1";
    return;
  }
  // Unprivileged: as far as RLIMIT_NICE lets (20 - rlim_cur is the
  // lowest nice value allowed; 0 when the limit is unset).
  rlimit limit{};
  const int lowest =
      getrlimit(RLIMIT_NICE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
          ? 20 - static_cast<int>(limit.rlim_cur)
          : -20;
  if (lowest < nice_ && SetThreadNice(lowest)) {
    reniced_ = true;
    text_ = fmt::format("nice {}", lowest);
  }
}

SamplerPriority::~SamplerPriority() {
  if (real_time_) {
    const sched_param before{.sched_priority = priority_};
    pthread_setschedparam(pthread_self(), policy_, &before);
  }
  if (reniced_) SetThreadNice(nice_);
}

}  // namespace flashmark
