// NullEngine: a diskless engine (model: fio's null ioengine). It moves no
// bytes; every unit completes with result == length. It exercises the whole
// runner (queueing, reaping, latency recording) without a device.
//
// Contract (see io_engine.h): one worker thread per instance.
// - Depth 1: Queue() completes at once (kCompleted).
// - Depth > 1: Queue() holds up to `depth` units in a FIFO ring (kQueued,
//   kBusy when full); Commit() reports how many were queued since the last
//   Commit(); Reap() hands back held units, all already complete. Reap()
//   also returns units not yet committed, so it never waits.
// - The hot path does no allocation, no syscall and no extra virtual call;
//   the ring is allocated once in Prep().
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "engine/io_engine.h"

namespace flashmark {

class NullEngine final : public IoEngine {
 public:
  static constexpr uint32_t kCapabilities = kCapAsync | kCapDiskless;

  uint32_t capabilities() const override { return kCapabilities; }
  Status Prep(const EngineSetup& setup) override;

  QueueResult Queue(IoUnit* unit) override {
    if (depth_ == 1) {
      unit->result = unit->length;
      return QueueResult::kCompleted;
    }
    if (count_ == depth_) return QueueResult::kBusy;
    unit->result = unit->length;
    uint32_t tail = head_ + count_;
    if (tail >= depth_) tail -= depth_;
    ring_[tail] = unit;
    ++count_;
    ++uncommitted_;
    return QueueResult::kQueued;
  }

  Result<int> Commit() override {
    const int committed = static_cast<int>(uncommitted_);
    uncommitted_ = 0;
    return committed;
  }

  Result<int> Reap(int min, int max, IoUnit** out) override;
  Status Sync(uint32_t file, FsyncMode mode) override;

 private:
  std::unique_ptr<IoUnit*[]> ring_;
  uint32_t depth_ = 1;
  uint32_t head_ = 0;         // oldest held unit
  uint32_t count_ = 0;        // units held
  uint32_t uncommitted_ = 0;  // queued since the last Commit()
};

}  // namespace flashmark
