// Checking blocks read back under --verify, shared by the workers (every
// read of a run) and the read-back pass (verify_pass.h).
//
// AuditBlocks classifies each verify block of a read against the state the
// generation map held for it (block_header.h does the byte work) and logs
// every bad one, with its file, offset and kind, in a MismatchLog.
// Threading: AuditBlocks is reentrant; MismatchLog takes a mutex on Add()
// (the error path only, never for a good block).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "engine/io_engine.h"
#include "model/verify_result.h"
#include "workload/generation_map.h"

namespace flashmark {

// The first `capacity` distinct bad blocks of a run, in the order found
// (a block read bad again is not listed again), and how many more bad
// reads came after the list was full.
class MismatchLog {
 public:
  static constexpr size_t kDefaultCapacity = 100;
  explicit MismatchLog(size_t capacity = kDefaultCapacity)
      : capacity_(capacity) {}

  void Add(VerifyMismatch mismatch);
  // Moves what was logged into `outcome` (appending) and empties the log.
  void MoveInto(VerifyOutcome& outcome);

 private:
  size_t capacity_;
  std::mutex mutex_;
  std::vector<VerifyMismatch> listed_;
  uint64_t not_listed_ = 0;
};

struct AuditContext {
  std::span<const IoFile> files;  // the run's targets, for paths
  MismatchLog* log = nullptr;
  bool read_back = false;  // mark mismatches as found by the pass
};

// Checks the blocks of `data` (`length` bytes read from `file` at
// `offset`, both multiples of `block_bytes`) whose states in `states` (one
// per block, from GenerationMap::Snapshot) are checkable; others are
// skipped. Only the first `readable` bytes were read: checkable blocks
// past them are lost (the file was truncated). Returns the counts.
VerifyCounts AuditBlocks(const AuditContext& context, uint32_t block_bytes,
                         const std::byte* data, uint32_t file, uint64_t offset,
                         uint64_t length, uint64_t readable,
                         const uint32_t* states);

}  // namespace flashmark
