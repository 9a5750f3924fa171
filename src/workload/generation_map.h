// GenerationMap: for every verify block of a run's files, the generation
// of the last write that completed there, so that reading a block back can
// tell the latest data from a lost write. Memory: 4 bytes per block (a
// 1 TiB target in 4 KiB blocks takes 1 GiB).
//
// Each block's state is one atomic word: the generation (0 = never written
// with --verify), a busy bit while a write to it is in flight, and an
// uncertain bit after a write failed (its contents are then unknown until
// the next successful write, and they are not checked).
//
// Threading: lock-free; any number of workers call every method at once.
// A writer claims all blocks of an IO before stamping and queueing it,
// which keeps two writes from being in flight on one block (their order
// on the media would be unknown); a claim that meets a busy block fails and
// changes nothing. Readers take a snapshot at submission and compare it at
// completion: a block that was written meanwhile is not checked.
// Offsets and lengths in bytes, multiples of block_bytes().
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace flashmark {

class GenerationMap {
 public:
  static constexpr uint32_t kBusy = 1u << 31;
  static constexpr uint32_t kUncertain = 1u << 30;
  static constexpr uint32_t kGenerationMask = kUncertain - 1;

  // Blocks of `block_bytes` over files of the given sizes (a partial block
  // at a file's end is not tracked).
  GenerationMap(uint32_t block_bytes, std::vector<uint64_t> file_sizes);

  uint32_t block_bytes() const { return block_bytes_; }
  size_t file_count() const { return file_sizes_.size(); }
  uint64_t file_size(uint32_t file) const { return file_sizes_[file]; }
  uint64_t BlocksOf(uint32_t file) const;
  uint64_t block_count() const { return size_; }

  // Claims the blocks of a write and advances their generations; on
  // success `states` (one per block) holds the states before the claim and
  // the new generation of block i is Generation(states[i]) + 1 (wrapping).
  // Returns false, claiming nothing, when a write to one is in flight.
  bool Claim(uint32_t file, uint64_t offset, uint32_t length, uint32_t* states);
  // Ends a claimed write: the new generations hold when `written`, else
  // the blocks become uncertain.
  void Finish(uint32_t file, uint64_t offset, uint32_t length, bool written);
  // Gives back a claim whose write was never issued: `states` as Claim()
  // returned them.
  void Abandon(uint32_t file, uint64_t offset, uint32_t length,
               const uint32_t* states);

  // A hint: the state of the block at `offset` is about to be used.
  void Prefetch(uint32_t file, uint64_t offset) const {
    __builtin_prefetch(At(file, offset), 1);
  }

  // The raw states of the blocks [offset, offset + length).
  void Snapshot(uint32_t file, uint64_t offset, uint32_t length,
                uint32_t* states) const;

  static uint32_t Generation(uint32_t state) { return state & kGenerationMask; }
  static uint32_t Next(uint32_t state) {
    const uint32_t next = Generation(state) + 1;
    return next > kGenerationMask ? 1 : next;
  }
  // True when a block in `state` holds data whose generation is known.
  static bool Checkable(uint32_t state) {
    return Generation(state) != 0 && (state & (kBusy | kUncertain)) == 0;
  }

  // Every block's state in file order (for saving; call with no IO in
  // flight), and the reverse.
  std::vector<uint32_t> Export() const;
  // How many blocks have a generation to check (Checkable).
  uint64_t CheckableCount() const;
  void Import(std::span<const uint32_t> states);

 private:
  std::atomic<uint32_t>* At(uint32_t file, uint64_t offset) const;

  uint32_t block_bytes_;
  std::vector<uint64_t> file_sizes_;
  std::vector<uint64_t> first_block_;  // index of each file's first block
  uint64_t size_ = 0;
  std::unique_ptr<std::atomic<uint32_t>[]> states_;
};

}  // namespace flashmark
