#include "workload/generation_map.h"

#include <algorithm>

namespace flashmark {

GenerationMap::GenerationMap(uint32_t block_bytes,
                             std::vector<uint64_t> file_sizes)
    : block_bytes_(block_bytes), file_sizes_(std::move(file_sizes)) {
  for (uint64_t size : file_sizes_) {
    first_block_.push_back(size_);
    size_ += size / block_bytes_;
  }
  states_ = std::make_unique<std::atomic<uint32_t>[]>(size_);
  for (uint64_t i = 0; i < size_; ++i) {
    states_[i].store(0, std::memory_order_relaxed);
  }
}

uint64_t GenerationMap::BlocksOf(uint32_t file) const {
  return file_sizes_[file] / block_bytes_;
}

std::atomic<uint32_t>* GenerationMap::At(uint32_t file, uint64_t offset) const {
  return &states_[first_block_[file] + offset / block_bytes_];
}

bool GenerationMap::Claim(uint32_t file, uint64_t offset, uint32_t length,
                          uint32_t* states) {
  std::atomic<uint32_t>* blocks = At(file, offset);
  const uint32_t count = length / block_bytes_;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t state = blocks[i].load(std::memory_order_acquire);
    for (;;) {
      if (state & kBusy) {
        Abandon(file, offset, i * block_bytes_, states);
        return false;
      }
      if (blocks[i].compare_exchange_weak(state, Next(state) | kBusy,
                                          std::memory_order_acq_rel)) {
        break;
      }
    }
    states[i] = state;
  }
  return true;
}

void GenerationMap::Finish(uint32_t file, uint64_t offset, uint32_t length,
                           bool written) {
  std::atomic<uint32_t>* blocks = At(file, offset);
  const uint32_t count = length / block_bytes_;
  // Only the claimant changes a busy block, so plain stores suffice.
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t state = blocks[i].load(std::memory_order_relaxed);
    blocks[i].store((state & ~kBusy) | (written ? 0 : kUncertain),
                    std::memory_order_release);
  }
}

void GenerationMap::Abandon(uint32_t file, uint64_t offset, uint32_t length,
                            const uint32_t* states) {
  std::atomic<uint32_t>* blocks = At(file, offset);
  const uint32_t count = length / block_bytes_;
  for (uint32_t i = 0; i < count; ++i) {
    blocks[i].store(states[i], std::memory_order_release);
  }
}

void GenerationMap::Snapshot(uint32_t file, uint64_t offset, uint32_t length,
                             uint32_t* states) const {
  const std::atomic<uint32_t>* blocks = At(file, offset);
  const uint32_t count = length / block_bytes_;
  for (uint32_t i = 0; i < count; ++i) {
    states[i] = blocks[i].load(std::memory_order_acquire);
  }
}

uint64_t GenerationMap::CheckableCount() const {
  uint64_t count = 0;
  for (uint64_t i = 0; i < size_; ++i) {
    count +=
        Checkable(states_[i].load(std::memory_order_acquire) & ~kBusy) ? 1 : 0;
  }
  return count;
}

std::vector<uint32_t> GenerationMap::Export() const {
  std::vector<uint32_t> out(size_);
  for (uint64_t i = 0; i < size_; ++i) {
    out[i] = states_[i].load(std::memory_order_acquire) & ~kBusy;
  }
  return out;
}

void GenerationMap::Import(std::span<const uint32_t> states) {
  const uint64_t count = std::min<uint64_t>(states.size(), size_);
  for (uint64_t i = 0; i < count; ++i) {
    states_[i].store(states[i] & ~kBusy, std::memory_order_relaxed);
  }
}

}  // namespace flashmark
