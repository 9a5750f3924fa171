#include "system/capture_join.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace flashmark {
namespace {

constexpr int64_t kHoldBackNs = 50'000'000;
constexpr int64_t kForgetQueuedNs = 5'000'000'000;
// block_rq_complete's sector of a request that has none (a flush: the
// kernel's blk_rq_pos() of it is (sector_t)-1; block_rq_issue says 0).
constexpr uint64_t kNoSector = ~uint64_t{0};

}  // namespace

CaptureJoin::CaptureJoin(const CycleClock& clock, uint64_t start_ticks,
                         std::vector<CaptureDevice> devices, bool by_process)
    : clock_(clock),
      start_ticks_(start_ticks),
      devices_(std::move(devices)),
      by_process_(by_process),
      hold_ticks_(static_cast<uint64_t>(static_cast<double>(kHoldBackNs) *
                                        clock.TicksPerNs())) {}

int64_t CaptureJoin::Ns(uint64_t ticks) const {
  return static_cast<int64_t>(clock_.SpanNs(start_ticks_, ticks));
}

int CaptureJoin::WholeDiskDevice(uint32_t dev) const {
  for (size_t k = 0; k < devices_.size(); ++k) {
    if (devices_[k].trace_dev == dev) return static_cast<int>(k);
  }
  return -1;
}

int CaptureJoin::Device(uint32_t dev, uint64_t sector) const {
  for (size_t k = 0; k < devices_.size(); ++k) {
    const CaptureDevice& d = devices_[k];
    if (d.trace_dev != dev || sector < d.first_sector) continue;
    if (d.sectors != 0 && sector >= d.first_sector + d.sectors) continue;
    return static_cast<int>(k);
  }
  return -1;
}

void CaptureJoin::Add(const BlockEvent& event) {
  held_.push_back(event);
  newest_ticks_ = std::max(newest_ticks_, event.ticks);
}

void CaptureJoin::Join() {
  // The events held from before are in order: sort the new ones, merge.
  const auto earlier = [](const BlockEvent& a, const BlockEvent& b) {
    return a.ticks < b.ticks;
  };
  const auto middle = held_.begin() + static_cast<ptrdiff_t>(sorted_);
  std::stable_sort(middle, held_.end(), earlier);
  std::inplace_merge(held_.begin(), middle, held_.end(), earlier);
  const uint64_t until =
      newest_ticks_ > hold_ticks_ ? newest_ticks_ - hold_ticks_ : 0;
  size_t joined = 0;
  while (joined < held_.size() && held_[joined].ticks <= until) {
    JoinEvent(held_[joined++]);
  }
  held_.erase(held_.begin(), held_.begin() + static_cast<ptrdiff_t>(joined));
  sorted_ = held_.size();
  const int64_t now_ns = Ns(until);
  if (now_ns - forgot_at_ns_ > 1'000'000'000) ForgetOldQueued(now_ns);
}

void CaptureJoin::ForgetOldQueued(int64_t now_ns) {
  forgot_at_ns_ = now_ns;
  for (auto it = queued_.begin(); it != queued_.end();) {
    if (now_ns - it->second.ns <= kForgetQueuedNs) {
      ++it;
      continue;
    }
    if (Counted(it->second.pid)) ++never_issued_;
    it = queued_.erase(it);
  }
}

void CaptureJoin::JoinEvent(const BlockEvent& in) {
  BlockEvent event = in;
  int device = -1;
  if (event.sectors == 0 && (event.sector == 0 || event.sector == kNoSector)) {
    // A flush has no sector: the disk's, as its first device captured.
    device = WholeDiskDevice(event.dev);
    if (device >= 0) event.sector = devices_[device].first_sector;
  } else {
    device = Device(event.dev, event.sector);
  }
  if (device < 0) return;
  const auto index = static_cast<uint16_t>(device);
  const int64_t ns = Ns(event.ticks);
  switch (event.kind) {
    case BlockEvent::Kind::kQueue: {
      // After those queued at the same sector before it (first in, first
      // issued).
      queued_.emplace(Key{index, event.sector},
                      Queued{ns, event.pid, event.sectors});
      if (event.pid != 0 && (!by_process_ || pids_.contains(event.pid))) {
        processes_.try_emplace(event.pid, event.comm);
      }
      return;
    }
    case BlockEvent::Kind::kIssue: {
      TraceRwbs rwbs;
      if (!ParseTraceRwbs(event.rwbs, event.sectors, rwbs)) rwbs.is_io = false;
      TracedIo io;
      io.issue_ns = ns;
      io.pid = event.pid;
      // The oldest queued there (find() may give any of equal keys).
      const Key at{index, event.sector};
      auto q = queued_.lower_bound(at);
      if (q != queued_.end() && q->first == at) {
        const Queued first = q->second;
        queued_.erase(q);
        io.queue_ns = first.ns;
        io.pid = first.pid;
        if (event.sectors > 0 && first.sectors > event.sectors) {
          // A split bio: the rest is queued where this piece ends.
          const Key rest{index, event.sector + event.sectors};
          queued_.emplace_hint(
              queued_.lower_bound(rest), rest,
              Queued{first.ns, first.pid, first.sectors - event.sectors});
        }
      }
      // Bios merged into this request: queued inside its range.
      if (event.sectors > 0) {
        auto m = queued_.upper_bound({index, event.sector});
        while (m != queued_.end() && m->first.first == index &&
               m->first.second < event.sector + event.sectors) {
          const Queued& bio = m->second;
          io.queue_ns =
              io.queue_ns < 0 ? bio.ns : std::min(io.queue_ns, bio.ns);
          if (Counted(bio.pid)) ++merged_;
          m = queued_.erase(m);
        }
      }
      if (!rwbs.is_io) {
        ++no_operation_;
        return;
      }
      if (by_process_ && !pids_.contains(io.pid)) return;
      if (io.queue_ns < 0 && io.pid != 0) {
        processes_.try_emplace(io.pid, event.comm);
      }
      const CaptureDevice& d = devices_[index];
      io.offset = (event.sector - d.first_sector) << 9;
      io.length = event.sectors << 9;
      io.op = rwbs.op;
      io.sync = rwbs.sync;
      io.fua = rwbs.fua;
      io.device = index;
      in_flight_.emplace(InFlightKey{index, event.sector, event.sectors},
                         ios_.size());
      ios_.push_back(io);
      return;
    }
    case BlockEvent::Kind::kComplete: {
      const InFlightKey at{index, event.sector, event.sectors};
      auto f = in_flight_.lower_bound(at);
      // None: issued before the capture.
      if (f == in_flight_.end() || f->first != at) return;
      ios_[f->second].complete_ns = ns;
      in_flight_.erase(f);
      return;
    }
  }
}

void CaptureJoin::Finish(BlockIoTrace& trace) {
  newest_ticks_ += hold_ticks_;
  Join();
  for (const auto& [key, bio] : queued_) {
    if (Counted(bio.pid)) ++never_issued_;
  }
  queued_.clear();
  const size_t not_completed = in_flight_.size();
  in_flight_.clear();
  trace.devices.clear();
  for (const CaptureDevice& d : devices_) {
    trace.devices.push_back({d.name, d.bytes});
  }
  trace.ios = std::move(ios_);
  ios_.clear();
  for (auto& [pid, comm] : processes_) trace.processes[pid] = comm;
  if (merged_ > 0) {
    trace.notes.push_back(
        fmt::format("{} queued bios were merged into other requests", merged_));
  }
  if (never_issued_ > 0) {
    trace.notes.push_back(fmt::format(
        "{} queued bios were never issued to the device (another process's "
        "request absorbed them, or the capture ended first)",
        never_issued_));
  }
  if (not_completed > 0) {
    trace.notes.push_back(fmt::format(
        "{} requests had not completed when the capture ended", not_completed));
  }
  if (no_operation_ > 0) {
    trace.notes.push_back(fmt::format(
        "{} requests without data to replay (no operation) left out",
        no_operation_));
  }
}

}  // namespace flashmark
