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

// IOs and their bytes, read as a consistent pair without ever waiting for
// the writer: a single-writer latch (Linux's seqcount_latch) of two copies.
// Each Add makes the sequence odd (readers read copy 1), updates copy 0,
// makes it even (readers read copy 0), then updates copy 1; a reader reads
// the copy the sequence names and retries only if the sequence moved
// meanwhile, which takes a running writer. A writer preempted in the
// middle of an Add (thousands of busy workers on a few cores) leaves the
// sequence still, so the reader gets the other, whole copy at once; a
// plain sequence lock's reader spun there until that worker ran again
// (seconds). Without fences (Boehm 2012): the data are stored with release
// and loaded with acquire, so a reader that sees a value of an update in
// progress also sees the sequence that update moved. On x86 every one of
// these is a plain move; ThreadSanitizer, which does not model fences,
// understands it.
class IoTally {
 public:
  struct Totals {
    uint64_t ios = 0;
    uint64_t bytes = 0;
  };

  void Add(uint64_t bytes) {
    const uint64_t sequence = sequence_.load(std::memory_order_relaxed);
    sequence_.store(sequence + 1, std::memory_order_release);
    copies_[0].Add(bytes);
    sequence_.store(sequence + 2, std::memory_order_release);
    copies_[1].Add(bytes);
  }

  Totals Load() const {
    for (;;) {
      const uint64_t sequence = sequence_.load(std::memory_order_acquire);
      const Totals totals = copies_[sequence & 1].Load();
      if (sequence_.load(std::memory_order_relaxed) == sequence) {
        return totals;
      }
    }
  }

 private:
  struct Copy {
    void Add(uint64_t amount) {
      ios.store(ios.load(std::memory_order_relaxed) + 1,
                std::memory_order_release);
      bytes.store(bytes.load(std::memory_order_relaxed) + amount,
                  std::memory_order_release);
    }
    Totals Load() const {
      return {ios.load(std::memory_order_acquire),
              bytes.load(std::memory_order_acquire)};
    }
    std::atomic<uint64_t> ios{0};
    std::atomic<uint64_t> bytes{0};
  };
  std::atomic<uint64_t> sequence_{0};
  Copy copies_[2];
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
  // --profile: per commit, its first write to its sync's return.
  LiveHistogram commit_latency;
};

}  // namespace flashmark
