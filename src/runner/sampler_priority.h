// SamplerPriority: while it lives, the calling thread (the sampler's)
// runs ahead of the workers, so that its samples are taken on time and
// --time and Ctrl-C are honoured even when thousands of busy workers share
// a few cores (at normal priority a waking sampler waited seconds for a
// CPU behind 512 of them on 2 cores). It asks for the lowest real-time
// priority (SCHED_FIFO 1: the thread sleeps between samples and a sample
// takes microseconds), or, where that is not permitted, the highest nice
// value it may take; where neither is, nothing changes. The thread's
// policy and nice value are restored on destruction.
// Make it after the worker threads are made: new threads inherit the
// priority of the thread that makes them.
// Threading: construct and destroy on the same thread.
#pragma once

#include <string>

namespace flashmark {

class SamplerPriority {
 public:
  SamplerPriority();
  ~SamplerPriority();
  SamplerPriority(const SamplerPriority&) = delete;
  SamplerPriority& operator=(const SamplerPriority&) = delete;

  // "SCHED_FIFO 1", "nice -10" or "normal".
  const std::string& text() const { return text_; }

 private:
  int policy_ = 0;
  int priority_ = 0;
  int nice_ = 0;
  bool real_time_ = false;
  bool reniced_ = false;
  std::string text_ = "normal";
};

}  // namespace flashmark
