// [campaign.steady-state]: the SNIA rounds of a campaign (campaign_spec.h).
#include <fmt/format.h>

#include <array>

#include "config/campaign_toml.h"

namespace flashmark {

std::string_view RoundMetricName(RoundMetric metric) {
  switch (metric) {
    case RoundMetric::kIops:
      return "iops";
    case RoundMetric::kMibs:
      return "mibs";
    case RoundMetric::kLatency:
      return "latency";
  }
  return "?";
}

namespace campaign {
namespace {

constexpr std::array<std::string_view, 5> kSteadyStateKeys{
    "where", "metric", "window", "max-excursion", "slope-excursion"};

// A percentage in (0, 100].
Result<double> PercentAt(const Context& context, const toml::node& node,
                         std::string_view what) {
  const std::optional<double> value = node.value<double>();
  if (!value || node.is_boolean() || !(*value > 0 && *value <= 100)) {
    return ErrorAt(context, node.source(),
                   fmt::format("{}: expected a percentage above 0 and at most "
                               "100, got {}",
                               what, TypeName(node)),
                   fmt::format("the SNIA PTS limits are {} = {}", what,
                               what == "max-excursion" ? 20 : 10));
  }
  return *value / 100.0;
}

}  // namespace

Result<RoundSteadyState> ReadRoundSteadyState(
    const Context& context, const toml::node& node,
    const std::vector<MatrixAxis>& matrix) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    return ErrorAt(
        context, node.source(),
        fmt::format("steady-state: expected a table, got {}", TypeName(node)),
        "e.g. [campaign.steady-state] where = { bs = \"4k\" }");
  }
  if (Status ok = CheckKeys(context, *table, "[campaign.steady-state]",
                            kSteadyStateKeys);
      !ok.ok()) {
    return ok.error();
  }
  RoundSteadyState steady;
  const toml::node* where = table->get("where");
  if (where == nullptr) {
    return ErrorAt(context, node.source(),
                   "steady-state: where is missing: which cell of a round "
                   "is tracked",
                   "e.g. where = { bs = \"4k\", read-pct = 0 }");
  }
  auto filter = ReadCellFilter(context, *where, matrix, "where");
  if (!filter.ok()) return filter.error();
  steady.where = std::move(*filter);
  if (const toml::node* metric = table->get("metric")) {
    auto text = StringValue(context, *metric, "metric");
    if (!text.ok()) return text.error();
    static constexpr std::array<RoundMetric, 3> kMetrics{
        RoundMetric::kIops, RoundMetric::kMibs, RoundMetric::kLatency};
    bool known = false;
    for (RoundMetric candidate : kMetrics) {
      if (RoundMetricName(candidate) == *text) {
        steady.metric = candidate;
        known = true;
      }
    }
    if (!known) {
      return ErrorAt(context, metric->source(),
                     fmt::format("metric: unknown metric \"{}\"", *text),
                     "one of iops, mibs, latency (mean, µs)");
    }
  }
  if (const toml::node* window = table->get("window")) {
    const auto* rounds = window->as_integer();
    if (rounds == nullptr || rounds->get() < 2 || rounds->get() > 100) {
      return ErrorAt(context, window->source(),
                     "window: expected a whole number of rounds from 2 to 100",
                     "the SNIA PTS window is 5 rounds");
    }
    steady.window = static_cast<int>(rounds->get());
  }
  if (const toml::node* limit = table->get("max-excursion")) {
    auto value = PercentAt(context, *limit, "max-excursion");
    if (!value.ok()) return value.error();
    steady.data_excursion = *value;
  }
  if (const toml::node* limit = table->get("slope-excursion")) {
    auto value = PercentAt(context, *limit, "slope-excursion");
    if (!value.ok()) return value.error();
    steady.slope_excursion = *value;
  }
  return steady;
}

}  // namespace campaign
}  // namespace flashmark
