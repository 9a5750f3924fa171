// EngineTuning: how a worker drives its engine beyond the queue depth, with
// fio's option names. Plain data, validated by config/run_options (which
// engine honours which setting is a capability, engine/io_engine.h); safe
// to copy across threads.
#pragma once

#include <cstdint>

namespace flashmark {

struct EngineTuning {
  // --fixedbufs: the IO buffers must be registered with the kernel (io_uring
  // registers them whenever it can; with this a refusal is an error).
  bool fixed_buffers = false;
  // --sqpoll (fio: sqthread_poll): a kernel thread polls the submission
  // queue, so submitting needs no system call (io_uring).
  bool sqpoll = false;
  int sqpoll_cpu = -1;  // --sqpoll-cpu: that thread's CPU; -1 = any
  // --hipri: completions are polled from the device's poll queues instead
  // of interrupts (io_uring IOPOLL; needs O_DIRECT and poll queues).
  bool hipri = false;
  // --iodepth-batch-submit: submit once this many IOs are queued; 1 (as
  // fio): each IO as soon as it is made; 0 = all that can be queued at
  // that moment, in one system call.
  int batch_submit = 1;
  // --iodepth-batch-complete-min: wait for at least this many completions
  // when the queue is full (0: poll without waiting); fio's default 1.
  int batch_complete_min = 1;
  // --iodepth-batch-complete-max: reap at most this many at once; 0 = the
  // queue depth.
  int batch_complete_max = 0;

  bool operator==(const EngineTuning&) const = default;
};

}  // namespace flashmark
