// IoVerifier: what one worker does for --verify around each IO.
//
// Writes: before a write is queued, its blocks are claimed in the run's
// GenerationMap and each is stamped with a header (block_header.h) naming
// its file, offset, new generation and the run's seed; on completion the
// generations become the expected ones (or uncertain, if the write failed).
// Reads: the blocks' states are taken at submission; on completion every
// block that was not written meanwhile and has a known generation is
// checked, counted in the worker's measures and, when bad, logged.
//
// Threading: one instance per worker, used only on its thread; the map and
// the log are shared with the other workers (both are thread-safe).
// Ownership: borrows the map, the log, the files and the measures, which
// outlive it. Scratch space is per IO slot (IoUnit::slot < depth).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/io_engine.h"
#include "runner/block_audit.h"
#include "runner/worker_measures.h"
#include "workload/generation_map.h"

namespace flashmark {

struct IoVerifierSetup {
  GenerationMap* map = nullptr;
  MismatchLog* log = nullptr;
  uint64_t seed = 0;        // the run's, stamped into every block
  bool check_reads = true;  // false for a diskless engine: nothing to read
};

class IoVerifier {
 public:
  // `depth` IO slots (IoUnit::slot), each IO at most `max_io_bytes`.
  IoVerifier(const IoVerifierSetup& setup, std::span<const IoFile> files,
             WorkerMeasures& measures, int depth, uint32_t max_io_bytes);

  // Starts loading the map entries of the unit's blocks into the cache
  // (a miss on a large map costs as much as hashing a 4 KiB block).
  void Prefetch(const IoUnit& unit) const {
    setup_.map->Prefetch(unit.file, unit.offset);
  }

  // Claims and stamps the blocks of the write `unit` (its buffer holds the
  // payload). False when a block is being written by another IO; then
  // nothing changed and the write must not be issued.
  bool BeginWrite(IoUnit& unit);
  // A claimed write that was not issued after all.
  void AbandonWrite(const IoUnit& unit);
  void EndWrite(const IoUnit& unit, bool written);

  void BeginRead(const IoUnit& unit);
  // `complete`: the whole length was read.
  void EndRead(const IoUnit& unit, bool complete);

 private:
  uint32_t* StatesOf(const IoUnit& unit) {
    return states_.data() + static_cast<size_t>(unit.slot) * per_slot_;
  }

  IoVerifierSetup setup_;
  std::span<const IoFile> files_;
  WorkerMeasures& measures_;
  uint32_t block_bytes_;
  size_t per_slot_;
  std::vector<uint32_t> states_;  // per slot: states at claim/submission
  std::vector<uint32_t> now_;     // scratch: states at completion
};

}  // namespace flashmark
