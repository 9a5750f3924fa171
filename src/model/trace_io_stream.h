// The IOs of a block IO trace (model/block_io_trace.h) one piece at a
// time, so that a trace of millions of IOs never has to be in memory:
// a TraceIoSource hands them out in trace order (issue_ns, the stored
// order) a chunk at a time (the store's TraceReader, a vector here); a
// TraceIoSink takes them one by one in the same order (the store's
// TraceWriter, a vector here). The header (source, devices, processes,
// notes, times) travels separately as a BlockIoTrace whose `ios` is empty.
//
// Threading: a source or sink is used by one thread at a time; it may be
// handed to another thread between calls (runner/trace_prefetcher.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "common/result.h"
#include "model/block_io_trace.h"

namespace flashmark {

class TraceIoSource {
 public:
  virtual ~TraceIoSource() = default;
  // Replaces `ios` with the next IOs in trace order (at most one stored
  // chunk); leaves it empty once every IO was handed out.
  virtual Status Next(std::vector<TracedIo>& ios) = 0;
};

class TraceIoSink {
 public:
  virtual ~TraceIoSink() = default;
  // The next IO in trace order; an Error ends the import.
  virtual Status Append(const TracedIo& io) = 0;
};

// An in-memory trace's IOs as a source, `chunk` IOs at a time. Borrows
// the vector, which must outlive it.
class TraceVectorSource : public TraceIoSource {
 public:
  explicit TraceVectorSource(const std::vector<TracedIo>& ios,
                             size_t chunk = 65536)
      : ios_(ios), chunk_(chunk == 0 ? 1 : chunk) {}
  Status Next(std::vector<TracedIo>& ios) override {
    const size_t count = std::min(chunk_, ios_.size() - next_);
    ios.assign(ios_.begin() + static_cast<std::ptrdiff_t>(next_),
               ios_.begin() + static_cast<std::ptrdiff_t>(next_ + count));
    next_ += count;
    return OkStatus();
  }

 private:
  const std::vector<TracedIo>& ios_;
  size_t chunk_;
  size_t next_ = 0;
};

// Collects the IOs in a vector (a small trace, the importers' in-memory
// form). Borrows the vector.
class TraceVectorSink : public TraceIoSink {
 public:
  explicit TraceVectorSink(std::vector<TracedIo>& ios) : ios_(ios) {}
  Status Append(const TracedIo& io) override {
    ios_.push_back(io);
    return OkStatus();
  }

 private:
  std::vector<TracedIo>& ios_;
};

}  // namespace flashmark
