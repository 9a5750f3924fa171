#include "report/cluster_report_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "analysis/metric.h"
#include "config/tag_options.h"

namespace flashmark {
namespace {

using nlohmann::json;

const std::string* Tag(const StoredRun& stored, std::string_view key) {
  return FindTag(stored.labels.tags, key);
}

bool IsAggregate(const StoredRun& stored) {
  const std::string* rank = Tag(stored, kRankTag);
  return rank != nullptr && *rank == kAllRanks &&
         Tag(stored, kGroupTag) != nullptr;
}

uint64_t TotalIos(const RunSummary& s) { return s.read.ios + s.write.ios; }
uint64_t TotalBytes(const RunSummary& s) {
  return s.read.bytes + s.write.bytes;
}

json RankRow(const ReportRun& run, const MetricInfo& info,
             uint64_t aggregate_bytes) {
  const StoredRun& stored = run.stored;
  const RunAnalysis& a = run.analysis;
  const LatencySummary& l = a.latency.both;
  const uint64_t bytes = TotalBytes(stored.run.summary);
  const std::string* host = Tag(stored, kHostTag);
  return {{"id", stored.id},
          {"name", *ClusterRunName(stored)},
          {"rank", ClusterRank(stored) ? json(*ClusterRank(stored)) : json()},
          {"host", host ? *host : ""},
          {"status", RunStatusName(stored.run.status)},
          {"median", a.headline.figure.median / info.scale},
          {"p25", a.headline.figure.p25 / info.scale},
          {"p75", a.headline.figure.p75 / info.scale},
          {"iops_median",
           HeadlineWindowSummary(stored.run, Metric::kIops, a.headline).median},
          {"p99_ms", l.count == 0 ? json() : json(l.p99 / 1e6)},
          {"ios", TotalIos(stored.run.summary)},
          {"bytes", bytes},
          {"intervals", a.values.size()},
          {"share_percent", aggregate_bytes == 0
                                ? json()
                                : json(100.0 * static_cast<double>(bytes) /
                                       static_cast<double>(aggregate_bytes))}};
}

// Rank x time: each column the mean of up to `step` consecutive intervals
// of the headline metric; a rank that has no interval there (it was lost)
// has no cell.
json Heatmap(const ReportRun& aggregate,
             const std::vector<const ReportRun*>& ranks, const MetricInfo& info,
             size_t max_columns) {
  const RunAnalysis& a = aggregate.analysis;
  const size_t n = a.values.size();
  const size_t step = std::max<size_t>(1, (n + max_columns - 1) / max_columns);
  json start = json::array(), end = json::array(), rows = json::array(),
       cells = json::array();
  for (const ReportRun* rank : ranks)
    rows.push_back(*ClusterRunName(rank->stored));
  for (size_t first = 0, column = 0; first < n; first += step, ++column) {
    const size_t last = std::min(n, first + step);
    start.push_back(a.start_times[first]);
    end.push_back(a.times[last - 1]);
    for (size_t row = 0; row < ranks.size(); ++row) {
      const std::vector<double>& values = ranks[row]->analysis.values;
      double sum = 0;
      size_t count = 0;
      for (size_t i = first; i < last && i < values.size(); ++i, ++count) {
        sum += values[i];
      }
      if (count > 0) {
        cells.push_back(
            {column, row, sum / static_cast<double>(count) / info.scale});
      }
    }
  }
  return {{"start", start},
          {"end", end},
          {"rows", rows},
          {"cells", cells},
          {"intervals_per_column", step}};
}

}  // namespace

std::optional<size_t> ClusterRank(const StoredRun& stored) {
  const std::string* rank = Tag(stored, kRankTag);
  if (rank == nullptr || Tag(stored, kGroupTag) == nullptr) return {};
  size_t number = 0;
  const auto [end, error] =
      std::from_chars(rank->data(), rank->data() + rank->size(), number);
  if (error != std::errc() || end != rank->data() + rank->size()) return {};
  return number;
}

std::optional<std::string> ClusterRunName(const StoredRun& stored) {
  if (IsAggregate(stored)) return "all ranks";
  const auto rank = ClusterRank(stored);
  if (!rank) return {};
  const std::string* host = Tag(stored, kHostTag);
  return host ? fmt::format("rank {} on {}", *rank, *host)
              : fmt::format("rank {}", *rank);
}

json ClusterReportJson(const std::vector<ReportRun>& runs, size_t max_columns) {
  const ReportRun* aggregate = nullptr;
  for (const ReportRun& run : runs) {
    if (IsAggregate(run.stored)) {
      aggregate = &run;
      break;
    }
  }
  if (aggregate == nullptr) return nullptr;
  const std::string& group = *Tag(aggregate->stored, kGroupTag);
  std::vector<const ReportRun*> ranks;
  for (const ReportRun& run : runs) {
    const std::string* g = Tag(run.stored, kGroupTag);
    if (g != nullptr && *g == group && ClusterRank(run.stored)) {
      ranks.push_back(&run);
    }
  }
  if (ranks.empty()) return nullptr;
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const ReportRun* a, const ReportRun* b) {
                     return *ClusterRank(a->stored) < *ClusterRank(b->stored);
                   });
  const MetricInfo info = DescribeMetric(aggregate->analysis.metric);
  const uint64_t aggregate_bytes = TotalBytes(aggregate->stored.run.summary);
  json rows = json::array();
  for (const ReportRun* rank : ranks) {
    rows.push_back(RankRow(*rank, info, aggregate_bytes));
  }
  const size_t index = static_cast<size_t>(aggregate - runs.data());
  return {{"group", group},
          {"aggregate_index", index},
          {"aggregate", RankRow(*aggregate, info, aggregate_bytes)},
          {"summary", aggregate->stored.run.environment.cluster},
          {"metric", info.title},
          {"unit", info.unit},
          {"items", rows},
          {"heatmap", Heatmap(*aggregate, ranks, info, max_columns)}};
}

}  // namespace flashmark
