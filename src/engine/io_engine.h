// IoEngine: how one worker thread moves bytes (model: fio's ioengine_ops).
//
// Contract
// - Threading: an engine instance belongs to exactly one worker thread; no
//   method is called concurrently. Prep() may run on the thread that
//   builds the worker; every other call comes from the worker thread.
//   Different instances share nothing.
// - Ownership: the runner owns the files (open descriptors) and the IoUnits
//   and their buffers; the engine borrows them. A unit handed to Queue()
//   that returns kQueued belongs to the engine until Reap() returns it.
// - Setup: Prep() gets the files, the depth, the buffers the units will
//   use (so an engine may register them) and the tuning; a tuning setting
//   an engine cannot honour is an error from Prep(), never ignored (the
//   run checks capabilities first, so that the user gets a usage error
//   before any file is laid out).
// - Flow: Prep() once; then repeatedly Queue() units, Commit() to submit
//   what was queued, Reap() completions. A synchronous engine completes in
//   Queue() (kCompleted) and its Commit()/Reap() do nothing. Every queued
//   unit counts as in flight after Commit(): what the kernel did not take
//   yet stays with the engine, which submits it on a later Commit() or
//   Reap(). Reap() first submits what is queued, so a caller about to wait
//   may leave the Commit() to it. Reap() caps `min` at what is in flight. After
//   an error from Commit() or Reap() the run stops; the units stay with the
//   engine.
// - Units: offsets and lengths in bytes; IoUnit::result is the number of
//   bytes transferred, or -errno. A short transfer is reported as such; the
//   runner decides what it means.
// - The runner asks capabilities(), never which engine it has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/result.h"
#include "model/engine_tuning.h"
#include "model/io_pattern.h"

namespace flashmark {

enum class IoOp : uint8_t { kRead, kWrite };

// One open file (or block device) as the runner opened it.
struct IoFile {
  int fd = -1;
  uint64_t size = 0;  // usable bytes
  std::string path;
};

struct IoUnit {
  IoOp op = IoOp::kRead;
  uint32_t file = 0;       // index into EngineSetup::files
  uint64_t offset = 0;     // bytes
  uint32_t length = 0;     // bytes
  void* buffer = nullptr;  // `length` bytes, aligned as capabilities demand
  // Which of EngineSetup::buffers holds `buffer` (registered buffers).
  uint32_t buffer_index = 0;
  int64_t result = 0;  // set on completion: bytes done or -errno
  // Runner bookkeeping, untouched by engines:
  uint64_t submit_ticks = 0;  // the runner's CycleClock when it was queued
  uint64_t intended_ns = 0;   // rate-limited schedule time, 0 when unlimited
  uint32_t slot = 0;
};

enum class QueueResult { kCompleted, kQueued, kBusy };

enum EngineCapability : uint32_t {
  kCapAsync = 1u << 0,           // can hold more than one IO in flight
  kCapAlignedBuffers = 1u << 1,  // buffers must be page aligned
  kCapDirectIo = 1u << 2,        // honours O_DIRECT descriptors
  kCapDiskless = 1u << 3,        // touches no file or device
  kCapMemoryMapped = 1u << 4,    // IO is memory copies to a mapping
  kCapFixedBuffers = 1u << 5,    // EngineTuning::fixed_buffers
  kCapSqPoll = 1u << 6,          // EngineTuning::sqpoll
  kCapPolledIo = 1u << 7,        // EngineTuning::hipri
  kCapNvmeCommands = 1u << 8,    // targets are NVMe generic char devices
};

// One memory region the units' buffers live in.
struct IoBuffer {
  void* base = nullptr;
  size_t bytes = 0;
};

// Everything Prep() needs. The spans are borrowed for the call only; an
// engine copies what it keeps.
struct EngineSetup {
  std::span<const IoFile> files;
  int depth = 1;  // the most IOs in flight at once
  // The units' buffers: every unit's lies inside buffers[buffer_index]
  // (io_uring registers them). Empty: the units' buffers are anywhere.
  std::span<const IoBuffer> buffers;
  EngineTuning tuning;
};

class IoEngine {
 public:
  virtual ~IoEngine() = default;

  virtual uint32_t capabilities() const = 0;

  // Called once, before any IO, with this worker's files, the most IOs it
  // will have in flight at once, its buffers and its tuning.
  virtual Status Prep(const EngineSetup& setup) = 0;

  // What the engine actually set up, for the run's environment (e.g.
  // "io_uring: registered files, DEFER_TASKRUN"); "" when nothing is worth
  // recording. Valid after a successful Prep().
  virtual std::string SetupText() const { return {}; }

  // Hands one unit to the engine. kCompleted: unit->result is set now.
  // kQueued: it returns from a later Reap(). kBusy: nothing taken; reap
  // first.
  virtual QueueResult Queue(IoUnit* unit) = 0;

  // Submits everything queued since the last Commit(). Returns the number
  // submitted or an error.
  virtual Result<int> Commit() = 0;

  // Waits until at least `min` units completed; stores up to `max` of them
  // in `out`. Returns how many were stored.
  virtual Result<int> Reap(int min, int max, IoUnit** out) = 0;

  // Makes the file's written data durable (fsync or fdatasync semantics).
  // Called only with nothing in flight.
  virtual Status Sync(uint32_t file, FsyncMode mode) = 0;
};

// The first setting of `tuning` an engine with `capabilities` cannot
// honour, as a usage error naming `engine` and the option; ok when none.
Status CheckTuning(std::string_view engine, uint32_t capabilities,
                   const EngineTuning& tuning);

}  // namespace flashmark
