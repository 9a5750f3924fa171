// Reads blktrace's binary files: what blktrace(8) writes per CPU
// (DEV.blktrace.N) and what `blkparse -d` dumps, a run of struct
// blk_io_trace records (48 bytes, then pdu_len bytes of payload), version
// 7, in either byte order (the magic tells which). Each record becomes a
// BlktraceEvent with the words blkparse's default text format prints for
// it: its action letters (Q, G, M, D, C, R, P, U, UT, ...) and RWBS
// (F preflush; D discard, W write, R read or N none; then F FUA, A
// readahead, S sync, M metadata), so that both formats are read alike
// (store/blkparse_import.h). Notify records carry process names (the
// kernel writes one per process when tracing starts) and are kept in
// `processes`, not as events.
//
// Errors (usage errors): a file that does not start with the magic, a
// record of another version, a payload running past the end (a truncated
// file), a record whose CPU is not the file's (DEV.blktrace.N holds CPU N
// only), each naming the file and the record's byte offset.
//
// Units: times in ns as recorded (blktrace: since tracing started; the
// blk tracer of tracefs: the trace clock); sectors of 512 bytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/block_io_trace.h"
#include "model/trace_io_stream.h"
#include "store/import_common.h"

namespace flashmark {

struct BlktraceEvent {
  int64_t time_ns = 0;
  uint32_t device = 0;  // the kernel's dev_t: major << 20 | minor
  uint32_t cpu = 0;
  uint32_t sequence = 0;
  uint32_t pid = 0;
  std::string action;  // blkparse's letters; "" for an action it has none for
  std::string rwbs;
  uint64_t sector = 0;
  uint32_t sectors = 0;  // bytes / 512; 0 for a request without data
  uint16_t error = 0;
};

// True when `bytes` begin with a blk_io_trace magic (either byte order).
bool LooksLikeBlktraceBinary(std::string_view bytes);

// The records of one run's files (one per CPU, or one dump), one at a
// time, in time order: each file's records come in the order blktrace
// wrote them (its CPU's time order), and the files are merged by (time,
// CPU, sequence), ties in the order of the files, as blkparse merges
// them. Memory: a 256 KiB buffer per file and one event per file, however
// long the files are. Errors (those above) come from Next(), when the
// stream reaches the bad record. Threading: one thread.
class BlktraceEventStream {
 public:
  // Files named by path, read from disk; errors: a file that cannot be
  // read or is not a regular file.
  static Result<BlktraceEventStream> Open(
      const std::vector<std::string>& paths);
  // Files already in memory (tests, the fuzzer); borrows `files`, which
  // must outlive the stream.
  static BlktraceEventStream OfMemory(const std::vector<ImportFile>& files);
  BlktraceEventStream(BlktraceEventStream&&) noexcept;
  BlktraceEventStream& operator=(BlktraceEventStream&&) noexcept;
  ~BlktraceEventStream();

  // The next event; false after the last one.
  Result<bool> Next(BlktraceEvent& event);
  // Process names (pid -> command) from the notify records read so far.
  const std::map<uint32_t, std::string>& processes() const {
    return processes_;
  }
  // The first file's name and modification time (text empty), the names
  // of all the files, space-separated.
  const ImportFile& first_file() const { return first_file_; }
  std::string names() const;
  // The files' SHA-256 once Next() returned false: one file's own digest;
  // for several, the digest of their digests' hex, one per line, in the
  // order given.
  std::string HashHex() const;

 private:
  struct Cursor;
  BlktraceEventStream() = default;
  Status Prime();

  std::vector<std::unique_ptr<Cursor>> cursors_;
  std::vector<size_t> heads_;  // cursors with an event: a heap, earliest first
  bool primed_ = false;
  std::map<uint32_t, std::string> processes_;
  ImportFile first_file_;
};

// "MAJOR,MINOR", as blkparse names a device.
std::string BlktraceDeviceName(uint32_t device);

// The files of one blktrace run, as blkparse -i finds them: for
// "DIR/X.blktrace.N" or "DIR/X" (when no file X exists), every
// DIR/X.blktrace.<number>, by CPU; empty for any other path.
std::vector<std::string> BlktraceCpuFiles(const std::string& path);

// The stream's events joined exactly as blkparse's text of them would be
// (store/blkparse_import.h), each IO to `sink` as soon as it is known, the
// process names from the notify records: the trace's header (no IOs).
// Errors: the stream's, the joiner's, the sink's.
Result<BlockIoTrace> JoinBlktraceEvents(BlktraceEventStream& stream,
                                        TraceIoSink& sink);

// The whole of files in memory as a trace with its IOs (tests, the fuzzer).
Result<BlockIoTrace> ParseBlktraceBinary(const std::vector<ImportFile>& files);

}  // namespace flashmark
