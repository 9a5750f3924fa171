// BlockIoTrace: what an application asked of its block devices, IO by IO,
// as captured from the kernel's block tracepoints (`flashmark capture`) or
// imported (blkparse's text output, fio's iolog v2/v3): when each IO
// entered the block layer, was issued to the device and completed, its
// operation, where and how much, and which process issued it. The same
// trace whatever its source, so that summaries and replays read one
// shape. Plain data.
//
// Units: times in ns since the trace's start (start_unix_ns); offsets and
// lengths in bytes on the device (an fio iolog's offsets are into its
// files, each file one "device" here).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace flashmark {

enum class TraceOp : uint8_t { kRead, kWrite, kFlush, kDiscard };

// "read", "write", "flush", "discard".
const char* TraceOpName(TraceOp op);

// The block layer's RWBS text of a request (blktrace's, and the block
// tracepoints' rwbs field): an optional F (a preflush), then the operation
// (R read, W write, D discard, DE or E secure erase, F flush, N none),
// then flags (F FUA, A readahead, S sync, M metadata): "WS", "FWS", "FF".
// A W or N with a preflush and no sectors is a flush; an N without one is
// no IO (is_io false).
struct TraceRwbs {
  TraceOp op = TraceOp::kRead;
  bool is_io = true;
  bool sync = false, fua = false;
};
// False when `text` is not RWBS.
bool ParseTraceRwbs(std::string_view text, uint32_t sectors, TraceRwbs& out);

struct TracedIo {
  // Issued to the device's driver (blktrace's D); for an fio iolog, when
  // fio logged it; for an IO seen only as queued or completed, that time.
  int64_t issue_ns = 0;
  int64_t queue_ns = -1;     // entered the block layer (Q); -1: not seen
  int64_t complete_ns = -1;  // completed (C); -1: not seen
  uint64_t offset = 0;
  uint32_t length = 0;  // 0 for a flush without data
  uint32_t pid = 0;     // the issuing process; 0: not known
  uint16_t device = 0;  // index into BlockIoTrace::devices
  TraceOp op = TraceOp::kRead;
  bool sync = false;  // REQ_SYNC (blktrace's S)
  bool fua = false;   // forced unit access (blktrace's F after the op)
};

struct TraceDevice {
  std::string name;    // "loop3", "8,16" (blkparse), an fio file's name
  uint64_t bytes = 0;  // the device's size; 0: not known
};

struct BlockIoTrace {
  std::string source;  // "capture", "blktrace", "fio-iolog"
  std::string origin;  // what was traced or imported: "/dev/loop3", a file
  int64_t start_unix_ns = 0;
  int64_t duration_ns = 0;  // the capture's length (at least the last time)
  std::vector<TraceDevice> devices;
  std::vector<TracedIo> ios;                  // by issue_ns
  std::map<uint32_t, std::string> processes;  // pid -> command name
  // False when IOs are missing (the kernel overwrote events, the capture
  // was cut short): `notes` says why; a replay says so.
  bool complete = true;
  std::vector<std::string> notes;
};

}  // namespace flashmark
