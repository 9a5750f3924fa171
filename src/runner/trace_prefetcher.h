// TracePrefetcher: the IOs of a trace read ahead of a replay on a thread of
// their own, so that a timed replay never waits on the store: the thread
// pulls chunks (at most 65,536 IOs each) from a TraceIoSource
// (model/trace_io_stream.h: the store's TraceReader) into a queue of at
// most `ahead` chunks (2: double buffering, ~6 MiB), and waits while it is
// full; Next() hands out IOs from the chunk taken last and takes the next
// chunk from the queue, waiting only when the reader is behind (the
// store reads a chunk in milliseconds; a replay spends 65,536 IOs on it).
//
// Threading: constructed and Next() on one thread (the replay's); the
// source is used only by the prefetcher's thread from construction to
// destruction, which stops and joins it. Borrows the source.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "common/result.h"
#include "model/trace_io_stream.h"

namespace flashmark {

class TracePrefetcher {
 public:
  explicit TracePrefetcher(TraceIoSource& source, size_t ahead = 2);
  ~TracePrefetcher();
  TracePrefetcher(const TracePrefetcher&) = delete;
  TracePrefetcher& operator=(const TracePrefetcher&) = delete;

  // The next IO in trace order, valid until the next call; nullptr at the
  // end of the trace or after the source failed (error()).
  const TracedIo* Next() {
    if (at_ < current_.size()) return &current_[at_++];
    return NextChunk();
  }
  // The source's Error, once Next() returned nullptr because of it.
  std::optional<Error> error() const;

 private:
  const TracedIo* NextChunk();
  void Fill();

  TraceIoSource& source_;
  const size_t ahead_;
  std::vector<TracedIo> current_;
  size_t at_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<TracedIo>> ready_;  // guarded by mutex_
  bool done_ = false;                        // guarded: no more chunks
  bool stop_ = false;                        // guarded: the reader leaves
  std::optional<Error> error_;               // guarded
  std::thread thread_;
};

}  // namespace flashmark
