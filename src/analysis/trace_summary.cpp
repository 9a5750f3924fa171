#include "analysis/trace_summary.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analysis/quantiles.h"

namespace flashmark {
namespace {

constexpr size_t kTopShares = 8;

// Time-weighted queue depth: +1 at each issue, -1 at each completion.
void AddQueueDepth(const BlockIoTrace& trace, TraceSummary& s) {
  std::vector<std::pair<int64_t, int>> steps;
  steps.reserve(2 * trace.ios.size());
  for (const TracedIo& io : trace.ios) {
    if (io.complete_ns < 0) return;  // not known for every IO
    steps.emplace_back(io.issue_ns, +1);
    steps.emplace_back(std::max(io.complete_ns, io.issue_ns), -1);
  }
  if (steps.empty()) return;
  std::sort(steps.begin(), steps.end());  // completions first at a tie
  const int64_t end = std::max<int64_t>(trace.duration_ns, steps.back().first);
  const size_t seconds = static_cast<size_t>(end / 1'000'000'000) + 1;
  std::vector<double> area(seconds, 0);
  double total = 0;
  int depth = 0;
  int64_t at = 0;
  // Spreads depth x [from, to) over the seconds it covers.
  auto spread = [&](int64_t from, int64_t to) {
    while (from < to) {
      const size_t second = static_cast<size_t>(from / 1'000'000'000);
      const int64_t limit = std::min<int64_t>(
          to, static_cast<int64_t>(second + 1) * 1'000'000'000);
      area[second] +=
          static_cast<double>(depth) * static_cast<double>(limit - from);
      from = limit;
    }
  };
  for (const auto& [time, change] : steps) {
    if (depth > 0) spread(at, time);
    total += static_cast<double>(depth) * static_cast<double>(time - at);
    at = time;
    depth += change;
    s.max_queue_depth = std::max<uint32_t>(
        s.max_queue_depth, static_cast<uint32_t>(std::max(depth, 0)));
  }
  s.mean_queue_depth = end > 0 ? total / static_cast<double>(end) : 0;
  for (size_t i = 0; i < seconds; ++i) {
    const int64_t from = static_cast<int64_t>(i) * 1'000'000'000;
    const int64_t length = std::min<int64_t>(end - from, 1'000'000'000);
    s.queue_depth_per_second.push_back(
        length > 0 ? area[i] / static_cast<double>(length) : 0);
  }
}

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

TraceSummary SummarizeTrace(const BlockIoTrace& trace) {
  TraceSummary s;
  s.ios = trace.ios.size();
  std::map<TraceOp, TraceOpShare> ops;
  std::map<uint32_t, uint64_t> sizes;
  std::map<uint32_t, uint64_t> processes;
  std::map<std::pair<uint16_t, TraceOp>, uint64_t> next_offset;
  uint64_t data_ios = 0, sequential = 0;
  std::vector<double> gaps, queue, device;
  gaps.reserve(trace.ios.size());
  int64_t last_issue = -1;
  for (const TracedIo& io : trace.ios) {
    s.bytes += io.length;
    TraceOpShare& op = ops[io.op];
    op.op = io.op;
    ++op.ios;
    op.bytes += io.length;
    if (io.op != TraceOp::kFlush) ++sizes[io.length];
    ++processes[io.pid];
    if (io.op == TraceOp::kRead || io.op == TraceOp::kWrite) {
      ++data_ios;
      auto [it, fresh] = next_offset.try_emplace({io.device, io.op}, 0);
      if (!fresh && it->second == io.offset) ++sequential;
      it->second = io.offset + io.length;
    }
    if (last_issue >= 0)
      gaps.push_back(static_cast<double>(io.issue_ns - last_issue));
    last_issue = io.issue_ns;
    if (io.queue_ns >= 0 && io.queue_ns <= io.issue_ns)
      queue.push_back(static_cast<double>(io.issue_ns - io.queue_ns));
    if (io.complete_ns >= io.issue_ns)
      device.push_back(static_cast<double>(io.complete_ns - io.issue_ns));
  }
  const int64_t end = std::max<int64_t>(
      trace.duration_ns, trace.ios.empty() ? 0 : trace.ios.back().issue_ns);
  s.seconds = static_cast<double>(end) / 1e9;
  if (s.seconds > 0) {
    s.iops = static_cast<double>(s.ios) / s.seconds;
    s.mib_per_second = static_cast<double>(s.bytes) / s.seconds / (1 << 20);
  }
  for (const auto& [op, share] : ops) s.ops.push_back(share);
  for (const auto& [bytes, count] : sizes) s.sizes.push_back({bytes, count});
  std::stable_sort(s.sizes.begin(), s.sizes.end(),
                   [](const TraceSizeShare& a, const TraceSizeShare& b) {
                     return a.ios > b.ios;
                   });
  if (s.sizes.size() > kTopShares) s.sizes.resize(kTopShares);
  for (const auto& [pid, count] : processes) {
    const auto name = trace.processes.find(pid);
    s.processes.push_back(
        {pid, name == trace.processes.end() ? "" : name->second, count});
  }
  std::stable_sort(s.processes.begin(), s.processes.end(),
                   [](const TraceProcessShare& a, const TraceProcessShare& b) {
                     return a.ios > b.ios;
                   });
  if (s.processes.size() > kTopShares) s.processes.resize(kTopShares);
  s.sequential_share = data_ios > 0 ? static_cast<double>(sequential) /
                                          static_cast<double>(data_ios)
                                    : 0;
  s.interarrival_ns = SummarizeTraceTimes(std::move(gaps));
  if (!queue.empty()) s.queue_ns = SummarizeTraceTimes(std::move(queue));
  if (!device.empty()) s.device_ns = SummarizeTraceTimes(std::move(device));
  AddQueueDepth(trace, s);
  return s;
}

}  // namespace flashmark
