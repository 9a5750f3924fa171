#include "analysis/comparison_unit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "analysis/metric.h"
#include "common/units.h"

namespace flashmark {
namespace {

const std::string* Tag(const ComparisonMember& member, const std::string& key) {
  if (member.tags == nullptr) return nullptr;
  for (const auto& [k, v] : *member.tags) {
    if (k == key) return &v;
  }
  return nullptr;
}

// The capacity a member knows: its tag, else the block devices it measured.
Result<double> MemberCapacity(const ComparisonMember& member) {
  if (const std::string* text = Tag(member, "capacity")) {
    auto bytes = ParseCapacity(*text);
    if (!bytes.ok()) {
      return UsageError(fmt::format("run {}: capacity tag \"{}\" is not a size",
                                    member.id, *text),
                        "tag with --tag capacity=960G (decimal, as vendors "
                        "write it) or capacity=894GiB");
    }
    return static_cast<double>(*bytes);
  }
  double bytes = 0;
  for (const auto& target : member.run->environment.targets) {
    if (target.kind == "block device")
      bytes += static_cast<double>(target.bytes);
  }
  return bytes;
}

// "run 17 measures write throughput"
std::string Measures(const ComparisonMember& member) {
  return fmt::format("run {} measures {}", member.id,
                     DescribeMetric(DefaultMetric(*member.run)).title);
}

}  // namespace

Status CheckLikeWithLike(const std::vector<ComparisonMember>& members) {
  for (const ComparisonMember& member : members) {
    const ComparisonMember& first = members.front();
    if (DefaultMetric(*member.run) != DefaultMetric(*first.run)) {
      return UsageError(
          fmt::format("{}, {}: only like is compared with like (reads with "
                      "reads, writes with writes, mixed with mixed)",
                      Measures(first), Measures(member)),
          "compare runs of one kind apart (`flashmark list` shows each "
          "run's mode)");
    }
    if (member.analysis->metric != first.analysis->metric) {
      return UsageError(
          fmt::format("run {} is analysed on {}, run {} on {}: a comparison "
                      "needs one metric",
                      first.id, DescribeMetric(first.analysis->metric).title,
                      member.id, DescribeMetric(member.analysis->metric).title),
          "name one with --metric");
    }
  }
  return OkStatus();
}

Result<Price> ParsePriceTag(int64_t run_id, const std::string& text) {
  std::optional<Price> price = ParsePrice(text);
  if (!price) {
    return UsageError(
        fmt::format("run {}: price tag \"{}\" is not a price", run_id, text),
        "tag with --tag price=5999 or --tag \"price=USD 5999\"");
  }
  return std::move(*price);
}

Result<ComparisonUnit> BuildComparisonUnit(
    std::string name, const std::vector<ComparisonMember>& members) {
  ComparisonUnit unit{std::move(name), {}, {}, {}, std::nullopt, 0};
  if (members.empty()) return unit;
  if (Status like = CheckLikeWithLike(members); !like.ok()) return like.error();
  for (const ComparisonMember& member : members) {
    const RunAnalysis& a = *member.analysis;
    const size_t first = a.headline.first_index;
    const size_t end = std::min(a.headline.end_index, a.values.size());
    if (first >= end) {
      return UsageError(
          fmt::format(
              "run {} has no interval left to compare after the warm-up",
              member.id),
          "use a shorter --warmup");
    }
    const double scale = DescribeMetric(a.metric).scale;
    for (size_t i = first; i < end; ++i)
      unit.mibs.push_back(a.values[i] / scale);
    const auto iops = MetricSeries(*member.run, Metric::kIops);
    for (size_t i = first; i < std::min(end, iops.size()); ++i)
      unit.iops.push_back(iops[i]);
    for (size_t i = first; i < std::min(end, a.p99_ns.size());
         ++i) {  // NaN: no histogram
      if (!std::isnan(a.p99_ns[i])) unit.p99_ns.push_back(a.p99_ns[i]);
    }
    if (const std::string* text = Tag(member, "price")) {
      auto price = ParsePriceTag(member.id, *text);
      if (!price.ok()) return price.error();
      unit.price = *price;
    }
    auto capacity = MemberCapacity(member);
    if (!capacity.ok()) return capacity.error();
    if (*capacity > 0) unit.capacity_bytes = *capacity;
  }
  return unit;
}

}  // namespace flashmark
