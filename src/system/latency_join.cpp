#include "system/latency_join.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "model/histogram_buckets.h"

namespace flashmark {
namespace {

constexpr uint64_t kForgetNs = 10'000'000'000;  // 10 s of trace time
// How far apart two CPUs' clocks may read (a virtual machine's counters
// differ by a few microseconds): a request stamped that much before the
// IO's submission, or after its reap, on another CPU, is still its own.
constexpr uint64_t kSkewNs = 20'000;

// The entry of `map` at `key` for (dev, sector) that `better` (true when
// its first argument is) prefers, or end().
template <typename Map, typename Better>
typename Map::iterator Find(Map& map, uint64_t key, uint32_t dev,
                            uint64_t sector, Better better) {
  auto [first, last] = map.equal_range(key);
  auto found = map.end();
  for (auto it = first; it != last; ++it) {
    if (it->second.dev != dev || it->second.sector != sector) continue;
    if (found == map.end() || better(it->second, found->second)) found = it;
  }
  return found;
}

}  // namespace

void LatencyJoin::Part::Add(uint64_t ns) {
  if (counts_.empty()) counts_.assign(buckets::kCount, 0);
  const uint32_t index = buckets::IndexOf(ns);
  ++counts_[index];
  low_ = std::min(low_, index);
  high_ = std::max(high_, index);
}

LatencyHistogram LatencyJoin::Part::Take() {
  std::vector<LatencyHistogram::Bucket> buckets;
  for (uint32_t index = low_; index <= high_ && index < counts_.size();
       ++index) {
    if (counts_[index] == 0) continue;
    buckets.push_back({index, std::exchange(counts_[index], 0)});
  }
  low_ = UINT32_MAX;
  high_ = 0;
  return LatencyHistogram::FromBuckets(std::move(buckets));
}

LatencyJoin::LatencyJoin(const CycleClock& clock)
    : clock_(clock),
      forget_ticks_(static_cast<uint64_t>(kForgetNs * clock.TicksPerNs())),
      skew_ticks_(static_cast<uint64_t>(kSkewNs * clock.TicksPerNs())) {
  for (auto* map : {&queued_, &issued_, &completed_}) map->reserve(1024);
}

void LatencyJoin::AddEvent(const BlockEvent& event) {
  newest_ticks_ = std::max(newest_ticks_, event.ticks);
  const uint64_t key = Key(event.dev, event.sector);
  const auto oldest = [](const Request& a, const Request& b) {
    return a.queued < b.queued;
  };
  switch (event.kind) {
    case BlockEvent::Kind::kQueue:
      queued_.emplace(key, Request{.dev = event.dev,
                                   .sector = event.sector,
                                   .sectors = event.sectors,
                                   .queued = event.ticks});
      return;
    case BlockEvent::Kind::kIssue: {
      Request request{.dev = event.dev,
                      .sector = event.sector,
                      .sectors = event.sectors,
                      .queued = event.ticks};
      auto bio = Find(queued_, key, event.dev, event.sector, oldest);
      if (bio != queued_.end() && bio->second.queued <= event.ticks) {
        request.queued = bio->second.queued;
        queued_.erase(bio);
      }
      request.issued = event.ticks;
      issued_.emplace(key, request);
      return;
    }
    case BlockEvent::Kind::kComplete: {
      auto request = Find(issued_, key, event.dev, event.sector, oldest);
      if (request == issued_.end()) return;  // issued before the trace began
      Request done = request->second;
      issued_.erase(request);
      done.completed = std::max(event.ticks, done.issued);
      completed_.emplace(key, done);
      return;
    }
  }
}

bool LatencyJoin::Join(const PlacedIo& io) {
  // The requests that cover the IO, in sector order.
  auto& pieces = pieces_;
  pieces.clear();
  uint64_t sector = io.sector;
  const uint64_t end = io.sector + io.sectors;
  while (sector < end) {
    // Of the requests completed there within this IO's time, the one
    // queued nearest its submission (another may be an earlier IO's).
    auto [first, last] = completed_.equal_range(Key(io.dev, sector));
    auto piece = completed_.end();
    uint64_t nearest = UINT64_MAX;
    for (auto it = first; it != last; ++it) {
      const Request& r = it->second;
      if (r.dev != io.dev || r.sector != sector || r.sectors == 0) continue;
      if (r.queued + skew_ticks_ < io.submit_ticks ||
          r.completed > io.done_ticks + skew_ticks_) {
        continue;
      }
      const uint64_t apart = r.queued > io.submit_ticks
                                 ? r.queued - io.submit_ticks
                                 : io.submit_ticks - r.queued;
      if (apart < nearest) {
        nearest = apart;
        piece = it;
      }
    }
    if (piece == completed_.end()) return false;
    pieces.push_back(piece);
    sector += piece->second.sectors;
  }
  if (pieces.empty()) return false;
  uint64_t queued = pieces.front()->second.queued;
  const Request* last = &pieces.front()->second;
  for (const auto& piece : pieces) {
    queued = std::min(queued, piece->second.queued);
    if (piece->second.completed > last->completed) last = &piece->second;
  }
  const uint64_t flashmark = clock_.SpanNs(io.submit_ticks, queued);
  const uint64_t device = clock_.SpanNs(last->issued, last->completed);
  const uint64_t completion = clock_.SpanNs(last->completed, io.done_ticks);
  const uint64_t total = clock_.SpanNs(io.submit_ticks, io.done_ticks);
  const uint64_t queue =
      total - std::min(total, flashmark + device + completion);
  parts_[0].Add(flashmark);
  parts_[1].Add(queue);
  parts_[2].Add(device);
  parts_[3].Add(completion);
  by_latency_.Add({flashmark, queue, device, completion});
  for (const auto& piece : pieces) completed_.erase(piece);
  return true;
}

void LatencyJoin::AddIo(const PlacedIo& io) {
  if (!Join(io)) waiting_.push_back({io, 0});
}

void LatencyJoin::Forget(uint64_t before_ticks) {
  for (auto* map : {&queued_, &issued_, &completed_}) {
    std::erase_if(*map, [before_ticks](const auto& entry) {
      return entry.second.queued < before_ticks;
    });
  }
}

LatencySplit LatencyJoin::Take() {
  std::erase_if(waiting_, [this](Waiting& waiting) {
    if (Join(waiting.io)) return true;
    if (++waiting.takes < 2) return false;
    ++untraced_;
    return true;
  });
  if (newest_ticks_ > forget_ticks_) Forget(newest_ticks_ - forget_ticks_);
  return {parts_[0].Take(), parts_[1].Take(),   parts_[2].Take(),
          parts_[3].Take(), by_latency_.Take(), std::exchange(untraced_, 0)};
}

LatencySplit LatencyJoin::Finish() {
  for (Waiting& waiting : waiting_) waiting.takes = 2;
  std::erase_if(waiting_, [this](const Waiting& waiting) {
    if (!Join(waiting.io)) ++untraced_;
    return true;
  });
  return Take();
}

}  // namespace flashmark
