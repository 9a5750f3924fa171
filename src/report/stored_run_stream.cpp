#include "report/stored_run_stream.h"

#include <string>

#include "common/json_text.h"
#include "document/json_format.h"
#include "report/histogram_logs.h"

namespace flashmark {
namespace {

// Visits each interval of `stored` whole: its counters with its
// histograms, read from the store one interval at a time.
Status VisitIntervals(
    RunStore& store, const StoredRun& stored,
    const std::function<Status(const IntervalSample&)>& visit) {
  IntervalSample sample;
  return store.VisitHistograms(
      stored.id, 7,
      [&](size_t position, std::span<const LatencyHistogram> histograms,
          const SplitByLatency& by_latency) {
        if (position >= stored.run.intervals.size()) return OkStatus();
        sample = stored.run.intervals[position];  // with its untraced count
        sample.read_latency = histograms[0];
        sample.write_latency = histograms[1];
        sample.schedule_latency = histograms[2];
        LatencySplit& split = sample.latency_split;
        split.flashmark = histograms[3];
        split.queue = histograms[4];
        split.device = histograms[5];
        split.completion = histograms[6];
        split.by_latency = by_latency;
        return visit(sample);
      });
}

}  // namespace

Status StreamRunJson(RunStore& store, const StoredRun& stored,
                     const nlohmann::json& doc, const TextSink& write) {
  const std::string text = JsonText(doc, 1);
  // The member at the top level (one space of indent: a string's line
  // breaks are escaped, so no string holds this).
  constexpr std::string_view kMember = "\n \"intervals\": []";
  const size_t at = text.find(kMember);
  if (stored.run.intervals.empty() || at == std::string::npos) {
    return write(text + "\n");
  }
  const size_t open = at + kMember.size() - 1;  // just after '['
  if (Status head = write(std::string_view(text).substr(0, open)); !head.ok()) {
    return head;
  }
  // One interval per line: a week's 600k intervals pretty-printed took
  // 2.7 GB (a line per histogram bucket), on one line each 0.9 GB.
  bool first = true;
  std::string piece;
  Status streamed =
      VisitIntervals(store, stored, [&](const IntervalSample& sample) {
        piece = first ? "\n  " : ",\n  ";
        first = false;
        piece += JsonText(ToJson(sample));
        return write(piece);
      });
  if (!streamed.ok()) return streamed;
  if (!first) {
    if (Status close = write("\n "); !close.ok()) return close;
  }
  return write(text.substr(open) + "\n");
}

Status StreamHdrHistogramLog(RunStore& store, const StoredRun& stored,
                             const TextSink& write) {
  if (Status head = write(HdrHistogramLogHeader(stored.run)); !head.ok()) {
    return head;
  }
  return VisitIntervals(store, stored, [&](const IntervalSample& sample) {
    return write(HdrHistogramLogLines(sample));
  });
}

Status StreamFioHistogramLog(RunStore& store, const StoredRun& stored,
                             const TextSink& write) {
  const uint64_t block_size = FioHistogramLogBlockSize(stored.run);
  return VisitIntervals(store, stored, [&](const IntervalSample& sample) {
    return write(FioHistogramLogLines(sample, block_size));
  });
}

Result<std::vector<std::array<double, 4>>> SplitsAtMedian(
    RunStore& store, const StoredRun& stored) {
  std::vector<std::array<double, 4>> medians;
  if (stored.run.summary.latency_split.traced() == 0) return medians;
  medians.resize(stored.run.intervals.size());
  Status scanned = store.VisitHistograms(
      stored.id, 7,
      [&](size_t position, std::span<const LatencyHistogram> histograms,
          const SplitByLatency& by_latency) {
        if (position >= medians.size()) return OkStatus();
        medians[position] = SplitAtMedianNs(
            {&histograms[3], &histograms[4], &histograms[5], &histograms[6]},
            by_latency);
        return OkStatus();
      });
  if (!scanned.ok()) return scanned.error();
  return medians;
}

}  // namespace flashmark
