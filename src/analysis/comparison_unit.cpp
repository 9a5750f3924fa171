#include "analysis/comparison_unit.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

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
    auto bytes = ParseSize(*text);
    if (!bytes.ok()) {
      return UsageError(
          fmt::format("run {}: capacity tag \"{}\" is not a size", member.id, *text),
          "tag with --tag capacity=720G");
    }
    return static_cast<double>(*bytes);
  }
  double bytes = 0;
  for (const auto& target : member.run->environment.targets) {
    if (target.kind == "block device") bytes += static_cast<double>(target.bytes);
  }
  return bytes;
}

}  // namespace

Result<double> ParsePriceTag(int64_t run_id, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end == text.c_str() || *end != '\0' || !std::isfinite(value) ||
      value < 0) {
    return UsageError(fmt::format("run {}: price tag \"{}\" is not a number", run_id, text),
                      "tag with --tag price=5999");
  }
  return value;
}

Result<ComparisonUnit> BuildComparisonUnit(std::string name,
                                           const std::vector<ComparisonMember>& members) {
  ComparisonUnit unit{std::move(name), {}, {}, {}, std::nullopt, 0};
  for (const ComparisonMember& member : members) {
    const RunAnalysis& a = *member.analysis;
    if (a.first_index >= a.values.size()) {
      return UsageError(
          fmt::format("run {} has no interval left to compare after the warm-up", member.id),
          "use a shorter --warmup");
    }
    const double scale = DescribeMetric(a.metric).scale;
    for (size_t i = a.first_index; i < a.values.size(); ++i) {
      unit.mibs.push_back(a.values[i] / scale);
    }
    const auto iops = MetricSeries(*member.run, Metric::kIops);
    unit.iops.insert(unit.iops.end(), iops.begin() + std::min(a.first_index, iops.size()),
                     iops.end());
    for (size_t i = a.first_index; i < a.p99_ns.size(); ++i) {  // NaN: no histogram
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
