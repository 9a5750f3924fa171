// SamplerPriority: while it lives, the calling thread (the sampler's)
// runs ahead of the workers, so that its samples are taken on time and
// --time and Ctrl-C are honoured even when thousands of busy workers share
// a few cores (at the workers' priority a waking sampler waited seconds
// for a CPU behind 512 of them on 2 cores). It asks for the lowest
// real-time priority (SCHED_FIFO 1: the thread sleeps between samples and
// a sample takes microseconds to milliseconds); where that is not allowed,
// the lowest nice value it may take (-20 with CAP_SYS_NICE, else what
// RLIMIT_NICE allows); where neither is, nothing changes. Nice -20 alone
// was not enough: behind 4096 busy workers it still woke a second late.
// Sanitizer builds take only the nice value: their allocator's locks spin,
// and a real-time thread spinning on a lock a worker holds keeps that
// worker off its CPU (a Ctrl-C test never saw its first interval).
// Make it before the workers start running (RunControl::Start) and after
// any thread that should keep the normal priority is made: new threads
// inherit the priority of the thread that makes them.
// Where neither is allowed (a container without CAP_SYS_NICE, a user
// without RLIMIT_RTPRIO or RLIMIT_NICE) and the workers outnumber the
// CPUs, the workers step back instead: each takes nice 19 (WorkerNice),
// which needs no privilege, and the run says so (WorkerNiceWarning).
// Threading: construct and destroy on the same thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace flashmark {

class SamplerPriority {
 public:
  SamplerPriority();
  ~SamplerPriority();
  SamplerPriority(const SamplerPriority&) = delete;
  SamplerPriority& operator=(const SamplerPriority&) = delete;

  // Whether the calling thread now runs ahead of the normal priority.
  bool raised() const { return real_time_ || reniced_; }
  bool real_time() const { return real_time_; }

 private:
  int policy_ = 0;
  int priority_ = 0;
  bool real_time_ = false;
  int nice_ = 0;
  bool reniced_ = false;
};

// Whether a SamplerPriority made now would be raised (tried on the calling
// thread and undone at once).
bool SamplerCanRunAhead();

// The nice value each of `workers` workers gives itself (RunControl::
// Window): 19 where the sampler is not real-time and the workers outnumber
// the CPUs this process may use (a nice -20 sampler still waits behind
// hundreds of busy sanitized workers, and the output thread keeps their
// priority), else 0 (unchanged).
int WorkerNice(bool sampler_real_time, size_t workers);

// What the run says when its workers step back (WorkerNice above); nullopt
// when they need not.
std::optional<std::string> WorkerNiceWarning(size_t workers);

}  // namespace flashmark
