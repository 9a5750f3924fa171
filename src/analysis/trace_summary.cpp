#include "analysis/trace_summary.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analysis/quantiles.h"
#include "model/histogram_buckets.h"

namespace flashmark {
namespace {

constexpr size_t kTopShares = 8;

constexpr int64_t kTraceSummarySecondNs = 1'000'000'000;

}  // namespace

TraceTimes SummarizeTraceTimes(std::vector<double> values) {
  TraceTimes t;
  t.count = values.size();
  if (values.empty()) return t;
  std::sort(values.begin(), values.end());
  t.p50 = QuantileOfSorted(values, 0.5);
  t.p90 = QuantileOfSorted(values, 0.9);
  t.p99 = QuantileOfSorted(values, 0.99);
  t.max = values.back();
  double sum = 0;
  for (double v : values) sum += v;
  t.mean = sum / static_cast<double>(values.size());
  return t;
}

void TraceTimesAccumulator::Add(int64_t ns) {
  ns = std::max<int64_t>(ns, 0);
  if (buckets_.empty()) {
    buckets_.assign(buckets::kCount, 0);
    min_ = max_ = ns;
  }
  ++buckets_[buckets::IndexOf(static_cast<uint64_t>(ns))];
  ++count_;
  sum_ += static_cast<double>(ns);
  min_ = std::min(min_, ns);
  max_ = std::max(max_, ns);
}

double TraceTimesAccumulator::ValueAtRank(uint64_t rank) const {
  uint64_t seen = 0;
  for (uint32_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen > rank) {
      return std::clamp(buckets::Midpoint(i), static_cast<double>(min_),
                        static_cast<double>(max_));
    }
  }
  return static_cast<double>(max_);
}

TraceTimes TraceTimesAccumulator::Result() const {
  TraceTimes t;
  t.count = count_;
  if (count_ == 0) return t;
  // Type 7: h = (n - 1) q, between the order statistics floor(h) and
  // floor(h) + 1 (from 0).
  const auto quantile = [this](double q) {
    const double h = static_cast<double>(count_ - 1) * q;
    const auto below = static_cast<uint64_t>(h);
    const double low = ValueAtRank(below);
    if (below + 1 >= count_) return low;
    const double high = ValueAtRank(below + 1);
    return low + (h - static_cast<double>(below)) * (high - low);
  };
  t.p50 = quantile(0.5);
  t.p90 = quantile(0.9);
  t.p99 = quantile(0.99);
  t.max = static_cast<double>(max_);
  t.mean = sum_ / static_cast<double>(count_);
  return t;
}

// Depth `depth_` held from depth_at_ to `at`, then changes by `change`.
void TraceSummarizer::DepthStep(int64_t at, int change) {
  const int64_t from_ns = depth_at_;
  if (depth_ > 0 && at > from_ns) {
    const size_t last = static_cast<size_t>((at - 1) / kTraceSummarySecondNs);
    if (area_per_second_.size() <= last) area_per_second_.resize(last + 1, 0);
    for (int64_t from = from_ns; from < at;) {
      const size_t second = static_cast<size_t>(from / kTraceSummarySecondNs);
      const int64_t limit = std::min<int64_t>(
          at, static_cast<int64_t>(second + 1) * kTraceSummarySecondNs);
      area_per_second_[second] +=
          static_cast<double>(depth_) * static_cast<double>(limit - from);
      from = limit;
    }
  }
  depth_area_ +=
      static_cast<double>(depth_) * static_cast<double>(at - from_ns);
  depth_at_ = at;
  depth_ += change;
  s_.max_queue_depth = std::max<uint32_t>(
      s_.max_queue_depth, static_cast<uint32_t>(std::max(depth_, 0)));
}

void TraceSummarizer::Add(const TracedIo& io) {
  ++s_.ios;
  s_.bytes += io.length;
  TraceOpShare& op = ops_[io.op];
  op.op = io.op;
  ++op.ios;
  op.bytes += io.length;
  if (io.op != TraceOp::kFlush) ++sizes_[io.length];
  ++processes_[io.pid];
  if (io.op == TraceOp::kRead || io.op == TraceOp::kWrite) {
    ++data_ios_;
    auto [it, fresh] = next_offset_.try_emplace({io.device, io.op}, 0);
    if (!fresh && it->second == io.offset) ++sequential_;
    it->second = io.offset + io.length;
  }
  if (last_issue_ >= 0) gaps_.Add(io.issue_ns - last_issue_);
  last_issue_ = io.issue_ns;
  if (io.queue_ns >= 0 && io.queue_ns <= io.issue_ns)
    queue_.Add(io.issue_ns - io.queue_ns);
  if (io.complete_ns >= io.issue_ns) device_.Add(io.complete_ns - io.issue_ns);
  // Time-weighted queue depth: +1 at each issue, -1 at each completion,
  // completions first at a tie; an IO completed as it was issued never
  // raises the depth.
  last_step_ = std::max({last_step_, io.issue_ns, io.complete_ns});
  if (!depth_known_) return;
  if (io.complete_ns < 0) {  // not known for every IO: no depth at all
    depth_known_ = false;
    pending_ = {};
    area_per_second_ = {};
    return;
  }
  while (!pending_.empty() && pending_.top() <= io.issue_ns) {
    DepthStep(pending_.top(), -1);
    pending_.pop();
  }
  if (io.complete_ns <= io.issue_ns) return;
  DepthStep(io.issue_ns, +1);
  pending_.push(io.complete_ns);
}

TraceSummary SummarizeTrace(const BlockIoTrace& trace) {
  TraceSummarizer summarizer;
  for (const TracedIo& io : trace.ios) summarizer.Add(io);
  return summarizer.Finish(trace);
}

TraceSummary TraceSummarizer::Finish(const BlockIoTrace& header) {
  TraceSummary s = std::move(s_);
  const int64_t end = std::max<int64_t>(
      header.duration_ns, s.ios == 0 ? 0 : std::max<int64_t>(last_issue_, 0));
  s.seconds = static_cast<double>(end) / 1e9;
  if (s.seconds > 0) {
    s.iops = static_cast<double>(s.ios) / s.seconds;
    s.mib_per_second = static_cast<double>(s.bytes) / s.seconds / (1 << 20);
  }
  for (const auto& [op, share] : ops_) s.ops.push_back(share);
  for (const auto& [bytes, count] : sizes_) s.sizes.push_back({bytes, count});
  std::stable_sort(s.sizes.begin(), s.sizes.end(),
                   [](const TraceSizeShare& a, const TraceSizeShare& b) {
                     return a.ios > b.ios;
                   });
  if (s.sizes.size() > kTopShares) s.sizes.resize(kTopShares);
  for (const auto& [pid, count] : processes_) {
    const auto name = header.processes.find(pid);
    s.processes.push_back(
        {pid, name == header.processes.end() ? "" : name->second, count});
  }
  std::stable_sort(s.processes.begin(), s.processes.end(),
                   [](const TraceProcessShare& a, const TraceProcessShare& b) {
                     return a.ios > b.ios;
                   });
  if (s.processes.size() > kTopShares) s.processes.resize(kTopShares);
  s.sequential_share = data_ios_ > 0 ? static_cast<double>(sequential_) /
                                           static_cast<double>(data_ios_)
                                     : 0;
  s.interarrival_ns = gaps_.Result();
  if (queue_.count() > 0) s.queue_ns = queue_.Result();
  if (device_.count() > 0) s.device_ns = device_.Result();
  if (depth_known_ && s.ios > 0) {
    while (!pending_.empty()) {
      DepthStep(pending_.top(), -1);
      pending_.pop();
    }
    const int64_t depth_end = std::max(end, last_step_);
    s.mean_queue_depth =
        depth_end > 0 ? depth_area_ / static_cast<double>(depth_end) : 0;
    const size_t seconds =
        static_cast<size_t>(depth_end / kTraceSummarySecondNs) + 1;
    area_per_second_.resize(seconds, 0);
    for (size_t i = 0; i < seconds; ++i) {
      const int64_t from = static_cast<int64_t>(i) * kTraceSummarySecondNs;
      const int64_t length =
          std::min<int64_t>(depth_end - from, kTraceSummarySecondNs);
      s.queue_depth_per_second.push_back(
          length > 0 ? area_per_second_[i] / static_cast<double>(length) : 0);
    }
  }
  return s;
}

}  // namespace flashmark
