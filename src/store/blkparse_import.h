// Reads blkparse's text output (its default format: `blkparse -i DEV` or
// `blktrace -d DEV -o - | blkparse -i -`) as a block IO trace
// (model/block_io_trace.h). Each request issued to a driver (action D) is
// one IO: its device, sector and size, operation and flags from its RWBS
// field (R read, W write, D/E discard, N with a preflush F a flush; F
// after the operation FUA, S sync), issue time; the queue time of the bio
// that started it (Q, with its process and command name) and its
// completion time (C) when the trace holds them (a flush too, which
// blkparse prints without sectors: "D FN [cmd]", "C FN 0 [0]"). Bios
// merged into a
// request (their Q has no D of their own) are not IOs: a note counts them,
// as it counts requests queued but not issued, or issued but not completed,
// before the trace ended. The summary blkparse prints at the end, and
// events of other kinds (G, I, P, U, M, m...), are skipped.
//
// Streaming: BlkparseReader takes the text line by line and hands each IO
// to a sink in issue order (D order) once it is resolved (completed, or
// requeued: then dropped, to be issued again), keeping only what is
// unresolved, bounded:
// - requests issued and not yet completed wait in issue order; when more
//   than kBlkparseMaxWaiting wait, the oldest is stored without a
//   completion time (a note counts them; its C, if it comes, is ignored);
// - bios queued and not yet issued wait by (device, sector); when more
//   than kBlkparseMaxQueued wait, the older half (by queue time) are
//   counted as merged or never issued, as those left at the end are.
// At the end every request still waiting is stored without a completion
// time ("N requests had not completed when the trace ended"). blkparse
// prints events in time order: a D earlier than the D above is refused
// (a file edited or concatenated), where the whole-file reading sorted.
//
// Errors (usage errors, nothing returned): "FILE:LINE: ..." for an event
// line that does not parse or a D out of time order, and a file without
// any event (another tool's output, blkparse with a custom -f format); an
// Error of the sink ends the reading with that Error. Pure; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

#include "common/result.h"
#include "model/block_io_trace.h"
#include "model/trace_io_stream.h"
#include "store/import_common.h"

namespace flashmark {

inline constexpr size_t kBlkparseMaxWaiting = 262144;
inline constexpr size_t kBlkparseMaxQueued = 262144;

class BlkparseReader {
 public:
  // `file`: its name and modification time (its text is not read).
  // Borrows both, which must outlive the reader. The bounds are for tests.
  BlkparseReader(const ImportFile& file, TraceIoSink& sink,
                 size_t max_waiting = kBlkparseMaxWaiting,
                 size_t max_queued = kBlkparseMaxQueued)
      : file_(file),
        sink_(sink),
        max_waiting_(max_waiting),
        max_queued_(max_queued) {}
  // Line `number` (from 1), without its line end.
  Status Line(std::string_view line, size_t number);
  // After the last line: stores the requests still waiting, completes the
  // header (its notes).
  Status End();
  // The trace without its IOs (complete after End).
  const BlockIoTrace& header() const { return header_; }

 private:
  struct Queued {
    int64_t time_ns = 0;
    uint32_t pid = 0;
  };
  struct Waiting {
    TracedIo io;
    bool resolved = false;
    bool dropped = false;  // requeued: issued again by a later D
  };
  using QueueKey = std::pair<uint16_t, uint64_t>;              // sector
  using FlightKey = std::tuple<uint16_t, uint64_t, uint32_t>;  // + size
  Status EmitResolved();
  Status EmitFront();
  void PruneQueued();

  const ImportFile& file_;
  TraceIoSink& sink_;
  size_t max_waiting_, max_queued_;
  BlockIoTrace header_;
  std::map<std::string, uint16_t, std::less<>> devices_;
  // Bios queued, by (device, sector), in queue order: the first one a
  // request starting there is issued for.
  std::multimap<QueueKey, Queued> queued_;
  // Requests issued and not resolved: sequence number by (device,
  // sector, sectors); the requests themselves, in issue order, from
  // sequence number first_waiting_.
  std::multimap<FlightKey, uint64_t> in_flight_;
  std::deque<Waiting> waiting_;
  uint64_t first_waiting_ = 0;
  size_t events_ = 0, other_requests_ = 0, requeued_ = 0, merged_ = 0;
  size_t stored_ = 0, not_completed_ = 0, gave_up_ = 0;
  int64_t last_ns_ = 0, last_issue_ns_ = 0;
};

// The whole file's text at once (tests, the fuzzer): the trace with its IOs.
Result<BlockIoTrace> ParseBlkparseText(const ImportFile& file);

}  // namespace flashmark
