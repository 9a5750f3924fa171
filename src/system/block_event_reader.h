// BlockEventReader: the block events (BlockEvent) a tracefs instance's
// kernel buffers hold, read straight from each CPU's trace_pipe_raw (the
// files kept open, read without blocking, one sub-buffer a read) and
// decoded by the fields' offsets resolved once (BlockEventFormat), with
// libtraceevent's kbuffer walking each sub-buffer. Reading consumes: the
// kernel reuses what was read. No per-event allocation, lookup or call
// through a pointer: a drain of a busy device's trace costs little more
// than the copy out of the kernel.
// Ownership: owns its files and its kbuffer; the instance must outlive it
// (an open trace_pipe_raw keeps the instance from being removed: close
// the reader first). Threading: one thread at a time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "common/result.h"
#include "system/latency_join.h"

struct kbuffer;

namespace flashmark {

// Where one event's fields lie in its records (tep_format_field offsets).
struct BlockEventFormat {
  int id = -1;                             // common_type
  int dev = 0, sector = 0, nr_sector = 0;  // offsets into a record
  int pid = -1;                            // common_pid
  int rwbs = -1, rwbs_size = 0, comm = -1, comm_size = 0;  // -1: none
  BlockEvent::Kind kind = BlockEvent::Kind::kQueue;
};

class BlockEventReader {
 public:
  // Opens per_cpu/cpuN/trace_pipe_raw of every CPU under `instance_dir`.
  // `type_offset`: where a record's common_type (2 bytes) lies. An error
  // names the file that could not be opened.
  static Result<std::unique_ptr<BlockEventReader>> Open(
      const std::filesystem::path& instance_dir,
      std::span<const BlockEventFormat> formats, int type_offset);
  ~BlockEventReader();
  BlockEventReader(const BlockEventReader&) = delete;
  BlockEventReader& operator=(const BlockEventReader&) = delete;

  // The CPUs read, 0..cpus()-1 (not the kernel's numbers where some are
  // missing).
  size_t cpus() const { return fds_.size(); }
  // Appends to `out` the events of the formats that CPU `cpu`'s buffer
  // holds now, in its order (time order but for nested events); other
  // events are skipped. Returns how many it appended.
  size_t Read(size_t cpu, std::vector<BlockEvent>& out);

 private:
  BlockEventReader() = default;
  // Appends the event a record of `size` bytes holds, if it is one of
  // the formats' and long enough.
  void Decode(const unsigned char* data, int size, uint64_t ticks,
              std::vector<BlockEvent>& out) const;

  std::vector<int> fds_;
  std::vector<BlockEventFormat> formats_;
  std::vector<int> needed_;  // per format: the bytes its fields reach
  int type_offset_ = 0;
  std::vector<unsigned char> subbuffer_;  // one read's
  kbuffer* kbuf_ = nullptr;
};

}  // namespace flashmark
