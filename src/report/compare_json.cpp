#include "report/compare_json.h"

namespace flashmark {

nlohmann::json CompareJson(const Comparison& comparison,
                           const std::vector<ComparisonUnit>& units,
                           const std::vector<std::vector<int64_t>>& runs) {
  nlohmann::json doc = {{"schema", "flashmark.compare"},
                        {"schema_version", 1},
                        {"baseline", comparison.names.front()},
                        {"units", nlohmann::json::array()}};
  for (size_t u = 0; u < units.size(); ++u) {
    nlohmann::json unit = {{"name", comparison.names[u]}, {"runs", runs[u]}};
    for (const auto& metric : comparison.metrics) {
      if (metric.unit == "ns" && units[u].p99_ns.empty()) {
        unit[metric.metric] = nullptr;
        continue;
      }
      unit[metric.metric] = {
          {"median", metric.medians[u].estimate},
          {"median_low", metric.medians[u].low},
          {"median_high", metric.medians[u].high},
          {"ratio", metric.ratios[u].estimate},
          {"ratio_low", metric.ratios[u].low},
          {"ratio_high", metric.ratios[u].high},
          {"within_noise", static_cast<bool>(metric.within_noise[u])}};
    }
    const CostFigures& cost = comparison.costs[u];
    if (cost.per_gb) unit["price_per_gb"] = *cost.per_gb;
    if (cost.per_mibs) unit["price_per_mibs"] = *cost.per_mibs;
    if (cost.per_kiops) unit["price_per_kiops"] = *cost.per_kiops;
    if (cost.per_mibs) unit["currency"] = cost.currency;
    doc["units"].push_back(unit);
  }
  return doc;
}

}  // namespace flashmark
