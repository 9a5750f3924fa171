// WorkerMeasures: the cumulative counters and latency histograms of one
// worker. Threading: the worker thread is the only writer (relaxed
// single-writer stores, no locked instructions); the sampler reads them
// concurrently and takes deltas against its previous snapshot. Counters
// are stored with release after the histogram is recorded (free on x86),
// so a reader that loads a counter (acquire) sees at least as many IOs in
// the histograms. An IO's count and bytes change together (IoTally), so a
// reader never sees one without the other.
#pragma once

#include <atomic>
#include <cstdint>

#include "model/live_histogram.h"

namespace flashmark {

class SingleWriterCounter {
 public:
  void Add(uint64_t amount) {
    value_.store(value_.load(std::memory_order_relaxed) + amount,
                 std::memory_order_release);
  }
  uint64_t Load() const { return value_.load(std::memory_order_acquire); }

 private:
  std::atomic<uint64_t> value_{0};
};

// IOs and their bytes, read as a consistent pair: a single-writer sequence
// lock (the writer makes the sequence odd while it updates both). Without
// fences (Boehm 2012): the data are stored with release and loaded with
// acquire, so a reader that sees a value of an update in progress also
// sees its odd sequence and retries. On x86 every one of these is a plain
// move; ThreadSanitizer, which does not model fences, understands it.
class IoTally {
 public:
  struct Totals {
    uint64_t ios = 0;
    uint64_t bytes = 0;
  };

  void Add(uint64_t bytes) {
    const uint64_t sequence = sequence_.load(std::memory_order_relaxed);
    sequence_.store(sequence + 1, std::memory_order_relaxed);
    ios_.store(ios_.load(std::memory_order_relaxed) + 1,
               std::memory_order_release);
    bytes_.store(bytes_.load(std::memory_order_relaxed) + bytes,
                 std::memory_order_release);
    sequence_.store(sequence + 2, std::memory_order_release);
  }

  Totals Load() const {
    for (;;) {
      const uint64_t before = sequence_.load(std::memory_order_acquire);
      Totals totals{ios_.load(std::memory_order_acquire),
                    bytes_.load(std::memory_order_acquire)};
      if ((before & 1) == 0 &&
          sequence_.load(std::memory_order_relaxed) == before) {
        return totals;
      }
    }
  }

 private:
  std::atomic<uint64_t> sequence_{0};
  std::atomic<uint64_t> ios_{0};
  std::atomic<uint64_t> bytes_{0};
};

struct alignas(64) WorkerMeasures {
  IoTally reads;
  IoTally writes;
  SingleWriterCounter fsyncs;
  SingleWriterCounter errors;
  // --verify: blocks checked on reads, and bad ones by kind.
  SingleWriterCounter verify_checked;
  SingleWriterCounter verify_torn;
  SingleWriterCounter verify_misdirected;
  SingleWriterCounter verify_lost;
  SingleWriterCounter verify_newer;
  LiveHistogram read_latency;
  LiveHistogram write_latency;
  LiveHistogram schedule_latency;
};

}  // namespace flashmark
