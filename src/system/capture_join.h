// CaptureJoin: `flashmark capture`'s arithmetic. It turns the block
// layer's events (system/block_trace.h: a bio queued, a request issued,
// a request completed) into a trace's IOs (model/block_io_trace.h): one IO
// per request issued to a driver, with the queue time, process and command
// of the bio that started it and its completion time.
//
// Joining: a request issued at (device, sector) takes the oldest bio
// queued there (its time, pid, command). A bio the kernel split into
// several requests is one queued bio: its later pieces take what is left
// of it. Bios merged into a request (queued inside the range it covers)
// are not IOs of their own: the request takes the oldest queue time among
// them, and a note counts them, as it counts bios never issued (those
// forgotten after 5 s of trace time) and requests not completed when the
// capture ended. A completion finds the oldest request in flight with its
// device, sector and size. A request issued again after a requeue counts
// twice (block_rq_requeue is not traced). Requests of no operation (RWBS
// "N" without a flush) are left out and counted. A flush has no sector
// (its issue says 0, its completion (sector_t)-1): it is the disk's,
// given to the first device captured on that disk, and a completion
// without sectors finds the oldest flush in flight there.
//
// Order: each CPU's events come in time order, but the CPUs' are drained
// one after another, so events are held back 50 ms of trace time and
// joined in time order; Finish() joins the rest.
//
// Filters: only the devices given (whole disks as the tracepoints name
// them, each with the sector range it covers: a partition is its range of
// its disk, offsets from its start); when filtering by process, only the
// requests whose first bio one of the allowed pids (a process's threads,
// as the tracepoints name them) queued (a request without a queued bio:
// the thread that issued it).
//
// Units: event times are ticks of `clock`, the trace's ns since
// `start_ticks`; offsets and lengths in bytes. Threading: one thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/cycle_clock.h"
#include "model/block_io_trace.h"
#include "system/latency_join.h"

namespace flashmark {

struct CaptureDevice {
  std::string name;           // "loop3", "loop3p1": the trace's device name
  uint32_t trace_dev = 0;     // the whole disk, major << 20 | minor
  uint64_t first_sector = 0;  // the range it covers on the disk
  uint64_t sectors = 0;       // 0: to the end of the disk
  uint64_t bytes = 0;         // its size
};

class CaptureJoin {
 public:
  // `by_process`: only the IO of the pids allowed (AllowPid).
  CaptureJoin(const CycleClock& clock, uint64_t start_ticks,
              std::vector<CaptureDevice> devices, bool by_process);

  void AllowPid(uint32_t pid) { pids_.insert(pid); }
  void Add(const BlockEvent& event);
  // Joins the events held longer than the hold-back.
  void Join();
  // Joins every event held; the IOs in issue order, their processes and
  // the notes (merged, never issued, not completed, no operation) go into
  // `trace` (its devices too).
  void Finish(BlockIoTrace& trace);
  // IOs kept so far.
  size_t ios() const { return ios_.size(); }

 private:
  struct Queued {
    int64_t ns = 0;
    uint32_t pid = 0;
    uint32_t sectors = 0;
  };
  using Key = std::pair<uint16_t, uint64_t>;  // device, sector
  void JoinEvent(const BlockEvent& event);
  int Device(uint32_t dev, uint64_t sector) const;
  int WholeDiskDevice(uint32_t dev) const;
  int64_t Ns(uint64_t ticks) const;
  void ForgetOldQueued(int64_t now_ns);
  // Whether a bio of `pid` is the capture's (for the notes' counts).
  bool Counted(uint32_t pid) const {
    return !by_process_ || pids_.contains(pid);
  }

  CycleClock clock_;
  uint64_t start_ticks_;
  std::vector<CaptureDevice> devices_;
  bool by_process_;
  std::unordered_set<uint32_t> pids_;
  uint64_t hold_ticks_;
  std::vector<BlockEvent> held_;
  size_t sorted_ = 0;  // held_'s first events, in time order
  uint64_t newest_ticks_ = 0;
  // Equal keys in the order inserted (the oldest found first): a node per
  // bio or request, no deque per key.
  std::multimap<Key, Queued> queued_;
  using InFlightKey = std::tuple<uint16_t, uint64_t, uint32_t>;
  std::multimap<InFlightKey, size_t> in_flight_;  // -> index into ios_
  std::vector<TracedIo> ios_;
  std::map<uint32_t, std::string> processes_;
  int64_t forgot_at_ns_ = 0;
  uint64_t merged_ = 0, never_issued_ = 0, no_operation_ = 0;
};

}  // namespace flashmark
