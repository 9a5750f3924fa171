// LatencyJoin: --trace-latency's arithmetic. It pairs the block layer's
// events of each request (bio queued, request issued, request completed:
// the tracepoints block_bio_queue, block_rq_issue, block_rq_complete) and
// joins the completed requests with the IOs flashmark completed, by
// device, sector and time, into a LatencySplit (model/latency_split.h).
//
// An IO [sector, sector + sectors) is joined with the completed requests
// that cover it from its first sector on, each queued after the IO's
// submission and completed before its reap, give or take 20 us of clock
// skew between CPUs (a bio the kernel split is several requests).
// Its parts: flashmark = first bio queued - submitted; completion = reaped
// - last request completed; device = that request's issue to completion;
// queue = the rest, so the parts add up to the IO's latency exactly. A
// request's issue without a queue event of its own (the later pieces of a
// split bio) counts as queued when issued.
//
// Order: events are added as the trace hands them over; an IO should be
// added once the events up to its reap were (the tracer drains the IO
// logs before the trace). An IO that finds no match waits for the next
// Take(), and is counted untraced at the one after (or at Finish()).
// Requests nobody claims (another process's IO on the same device) are
// forgotten after kForgetTicks of trace time.
//
// Memory: the requests' nodes come from a pool of the join's own (an
// event a node, reused once joined: no allocation per event).
//
// Units: ticks of one CycleClock (the trace is read on the same clock,
// system/block_trace.h); histograms in ns. Threading: one thread at a time.
#pragma once

#include <climits>
#include <cstdint>
#include <memory_resource>
#include <unordered_map>
#include <vector>

#include "common/cycle_clock.h"
#include "model/latency_split.h"
#include "model/split_by_latency.h"

namespace flashmark {

struct BlockEvent {
  enum class Kind : uint8_t { kQueue, kIssue, kComplete };
  Kind kind = Kind::kQueue;
  uint32_t dev = 0;  // the kernel's encoding: major << 20 | minor
  uint64_t sector = 0;
  uint32_t sectors = 0;
  uint64_t ticks = 0;
  // The process the event happened in (the tracepoint's common_pid: for a
  // queued bio its submitter; an issue or a completion may run in a
  // kworker or an interrupt), the request's RWBS ("WS", "FF", NUL-ended)
  // and, but for completions, the command name of that process.
  uint32_t pid = 0;
  char rwbs[10] = {};
  char comm[16] = {};
};

// An IO flashmark completed, placed on its device (TargetSectors).
struct PlacedIo {
  uint32_t dev = 0;
  uint64_t sector = 0;
  uint32_t sectors = 0;
  uint64_t submit_ticks = 0;
  uint64_t done_ticks = 0;
};

class LatencyJoin {
 public:
  explicit LatencyJoin(const CycleClock& clock);

  void AddEvent(const BlockEvent& event);
  void AddIo(const PlacedIo& io);
  // An IO that cannot be placed (the log dropped it, two file extents).
  void AddUntraced(uint64_t count) { untraced_ += count; }
  // The split of the IOs joined since the last Take().
  LatencySplit Take();
  // Counts every IO still waiting untraced; then Take().
  LatencySplit Finish();

 private:
  struct Request {
    uint32_t dev = 0;
    uint64_t sector = 0;
    uint32_t sectors = 0;
    uint64_t queued = 0;
    uint64_t issued = 0;
    uint64_t completed = 0;
  };
  struct Waiting {
    PlacedIo io;
    int takes = 0;  // Take()s it has waited through
  };
  // One part's counts since the last Take(), dense: a LatencyHistogram's
  // Add is a sorted insert, too slow for every IO.
  class Part {
   public:
    void Add(uint64_t ns);
    LatencyHistogram Take();

   private:
    std::vector<uint64_t> counts_;
    uint32_t low_ = UINT32_MAX;  // the touched range
    uint32_t high_ = 0;
  };
  using Requests = std::pmr::unordered_multimap<uint64_t, Request>;
  static uint64_t Key(uint32_t dev, uint64_t sector) {
    return (uint64_t{dev} << 40) ^ sector;
  }
  bool Join(const PlacedIo& io);
  void Forget(uint64_t before_ticks);

  CycleClock clock_;
  uint64_t forget_ticks_;
  uint64_t skew_ticks_;
  uint64_t newest_ticks_ = 0;
  std::pmr::unsynchronized_pool_resource pool_;  // before the maps
  Requests queued_{&pool_};                      // bio queued
  Requests issued_{&pool_};                      // and issued
  Requests completed_{&pool_};                   // and completed
  // Join()'s: the requests that cover one IO (reused).
  std::vector<Requests::iterator> pieces_;
  std::vector<Waiting> waiting_;
  Part parts_[4];  // flashmark, queue, device, completion
  SplitByLatencyAccumulator by_latency_;
  uint64_t untraced_ = 0;
};

}  // namespace flashmark
