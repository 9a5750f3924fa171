#include "config/campaign_plan.h"

#include <fmt/format.h>

#include "common/json_text.h"
#include "config/campaign_keys.h"

namespace flashmark {
namespace {

using nlohmann::json;

// The options set in `options`, by their canonical names (flags as true).
json WorkloadJson(const RunOptions& options) {
  json workload = json::object();
  for (const CampaignOption& option : CampaignOptions()) {
    const std::string name(option.name);
    if (option.flag != nullptr) {
      if (options.*option.flag) workload[name] = true;
    } else if (const auto& value = options.*option.text; value) {
      workload[name] = *value;
    }
  }
  return workload;
}

json StepJson(const CampaignSpec& campaign, const CampaignCell& cell,
              const ResetStep& step) {
  json out = {{"step", std::string(ResetKindName(step.kind))}};
  switch (step.kind) {
    case ResetKind::kDiscard:
    case ResetKind::kSecureErase:
      out["devices"] = ResetDevices(campaign, cell, step);
      break;
    case ResetKind::kWriteCache:
      out["devices"] = ResetDevices(campaign, cell, step);
      out["state"] = step.write_cache_on ? "on" : "off";
      break;
    case ResetKind::kMkfs:
      out["devices"] = ResetDevices(campaign, cell, step);
      out["filesystem"] = step.filesystem;
      out["options"] = step.options;
      break;
    case ResetKind::kMount:
      out["devices"] = ResetDevices(campaign, cell, step);
      out["mount_point"] = step.mount_point;
      out["options"] = step.options;
      break;
    case ResetKind::kPrecondition:
      out["method"] = step.precondition;
      if (step.precondition == "snia") {
        out["devices"] = ResetDevices(campaign, cell, step);
      } else {
        out["workload"] = WorkloadJson(step.precondition_workload);
        out["targets"] = cell.options.targets;
      }
      break;
    case ResetKind::kIdle:
      out["idle_ns"] = static_cast<int64_t>(step.idle.count());
      break;
    case ResetKind::kExec:
      out["argv"] = step.argv;
      break;
  }
  return out;
}

std::string Shown(const json& value) {
  if (value.is_null()) return "(none)";
  std::string text = JsonText(value);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

std::string Difference(const json& before, const json& now,
                       const std::string& path) {
  if (before.is_object() && now.is_object()) {
    for (const auto& [key, value] : before.items()) {
      const std::string inner = path.empty() ? key : path + "." + key;
      std::string found =
          Difference(value, now.contains(key) ? now[key] : json(), inner);
      if (!found.empty()) return found;
    }
    for (const auto& [key, value] : now.items()) {
      if (!before.contains(key)) {
        return fmt::format("{}: (none) then, {} now",
                           path.empty() ? key : path + "." + key, Shown(value));
      }
    }
    return "";
  }
  if (before.is_array() && now.is_array()) {
    for (size_t i = 0; i < before.size() || i < now.size(); ++i) {
      std::string found = Difference(i < before.size() ? before[i] : json(),
                                     i < now.size() ? now[i] : json(),
                                     fmt::format("{}[{}]", path, i));
      if (!found.empty()) return found;
    }
    return "";
  }
  if (before == now) return "";
  return fmt::format("{}: {} then, {} now", path.empty() ? "plan" : path,
                     Shown(before), Shown(now));
}

}  // namespace

json CellPlanJson(const CampaignSpec& campaign, const CampaignCell& cell) {
  json parameters = json::array();
  for (const auto& [key, value] : cell.parameters)
    parameters.push_back({key, value});
  json reset = json::array();
  for (const auto& step : campaign.reset) {
    if (ResetStepApplies(step, cell))
      reset.push_back(StepJson(campaign, cell, step));
  }
  return {{"parameters", parameters},
          {"workload", WorkloadJson(cell.options)},
          {"targets", cell.options.targets},
          {"reset", reset}};
}

std::string FirstPlanDifference(const json& before, const json& now) {
  return Difference(before, now, "");
}

}  // namespace flashmark
