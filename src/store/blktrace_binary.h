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
// only), each naming the file and the record's byte offset. Pure;
// thread-safe.
//
// Units: times in ns as recorded (blktrace: since tracing started; the
// blk tracer of tracefs: the trace clock); sectors of 512 bytes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/block_io_trace.h"
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

struct BlktraceEvents {
  std::vector<BlktraceEvent> events;          // by time, then CPU and sequence
  std::map<uint32_t, std::string> processes;  // pid -> command name
};

// True when `bytes` begin with a blk_io_trace magic (either byte order).
bool LooksLikeBlktraceBinary(std::string_view bytes);

// Decodes one or more files (one per CPU, or one dump) into one stream.
Result<BlktraceEvents> DecodeBlktraceBinary(
    const std::vector<ImportFile>& files);

// "MAJOR,MINOR", as blkparse names a device.
std::string BlktraceDeviceName(uint32_t device);

// The files of one blktrace run, as blkparse -i finds them: for
// "DIR/X.blktrace.N" or "DIR/X" (when no file X exists), every
// DIR/X.blktrace.<number>, by CPU; empty for any other path.
std::vector<std::string> BlktraceCpuFiles(const std::string& path);

// The files' events as a trace: joined exactly as blkparse's text of them
// would be (store/blkparse_import.h), the process names from the notify
// records. Errors as DecodeBlktraceBinary's.
Result<BlockIoTrace> ParseBlktraceBinary(const std::vector<ImportFile>& files);

}  // namespace flashmark
