// ReplayFlusher: the flushes of a replay (runner/replay_worker.h), each an
// fdatasync() of its file on a thread of its own, in the order asked, one
// at a time. A traced flush is a request like the others: the block layer
// issues the requests after it without waiting for it to complete, so a
// replay that waited (draining its IOs, then syncing) fell behind the
// trace's times by every flush's length: replaying SQLite's commits
// (412 flushes in 1039 IOs) missed its times by 0.55 s at p50.
//
// Threading: made on the runner's thread (its thread, started then,
// keeps the normal priority the replay's thread leaves: an fdatasync()
// sleeps in the kernel and needs no real-time priority); Request() from
// the replay's thread; Finish() from it too,
// once, after its last Request(); the `fsyncs` counter is written by the
// flusher's thread only (a single writer, as the sampler expects).
// Borrows the files, the counter and the RunControl (a failed fdatasync
// fails the run).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <span>
#include <thread>

#include "engine/io_engine.h"
#include "runner/run_control.h"
#include "runner/worker_measures.h"

namespace flashmark {

class ReplayFlusher {
 public:
  ReplayFlusher(std::span<const IoFile> files, SingleWriterCounter& fsyncs,
                RunControl& control);
  ~ReplayFlusher();
  ReplayFlusher(const ReplayFlusher&) = delete;
  ReplayFlusher& operator=(const ReplayFlusher&) = delete;

  void Request(uint32_t file);
  // Waits for the flushes asked for; how many succeeded.
  uint64_t Finish();

 private:
  void Loop();

  std::span<const IoFile> files_;
  SingleWriterCounter& fsyncs_;
  RunControl& control_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<uint32_t> pending_;
  bool closing_ = false;
  uint64_t done_ = 0;
  std::thread thread_;
};

}  // namespace flashmark
