// WorkerMeasures: the cumulative counters and latency histograms of one
// worker. Threading: the worker thread is the only writer (relaxed
// single-writer stores, no locked instructions); the sampler reads them
// concurrently and takes deltas against its previous snapshot. Counters
// are stored with release after the histogram is recorded (free on x86),
// so a reader that loads a counter (acquire) sees at least as many IOs in
// the histograms.
#pragma once

#include <atomic>
#include <cstdint>

#include "metrics/live_histogram.h"

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

struct alignas(64) WorkerMeasures {
  SingleWriterCounter read_ios;
  SingleWriterCounter read_bytes;
  SingleWriterCounter write_ios;
  SingleWriterCounter write_bytes;
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
